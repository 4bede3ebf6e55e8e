#!/usr/bin/python3
"""What a screen reader finds in a running Trellis window, through AT-SPI (pyatspi), the
accessibility bus every Linux screen reader (Orca) uses.

Usage: atspi-names.py PID [--do ROLE NAME ACTION]
Prints one JSON object: the interactive nodes (buttons, check boxes, entries, list items,
text fields) of the application whose process is PID, each with its role and name (and
"describedBy", the names of what describes it, when something does), the
unnamed ones, and the alerts (nodes a screen reader announces as they appear: role
notification or alert; GTK leaves hidden widgets out of the tree), with their text, and the
named images (a drawing, such as a chart: role image) with their description. Exits 2 when no
such application registers within 20 s.

With --do, it first performs the AT-SPI action ACTION (e.g. "click", "row.activate") of the
first node with role ROLE (e.g. "list item") and name NAME, as a screen reader's user does,
and reports it as "done" (false when there is no such node or action).
"""
import json
import sys
import time

import pyatspi

ALERTS = {pyatspi.ROLE_NOTIFICATION, pyatspi.ROLE_ALERT}

INTERACTIVE = {
    pyatspi.ROLE_PUSH_BUTTON, pyatspi.ROLE_TOGGLE_BUTTON, pyatspi.ROLE_CHECK_BOX, pyatspi.ROLE_ENTRY,
    pyatspi.ROLE_TEXT, pyatspi.ROLE_LIST_ITEM, pyatspi.ROLE_TABLE_ROW, pyatspi.ROLE_TABLE_CELL,
}


def application(pid, timeout=20.0):
    deadline = time.time() + timeout
    while time.time() < deadline:
        for app in pyatspi.Registry.getDesktop(0):
            try:
                if app is not None and app.get_process_id() == pid:
                    return app
            except Exception:
                continue
        time.sleep(0.3)
    return None


def described_by(node):
    """The names of the nodes that describe `node` (a validation message tied to its field)."""
    names = []
    for relation in node.getRelationSet():
        if relation.getRelationType() == pyatspi.RELATION_DESCRIBED_BY:
            names += [relation.getTarget(i).name for i in range(relation.getNTargets())]
    return names


def text_of(node):
    try:
        text = node.queryText()
        return text.getText(0, text.characterCount)
    except Exception:
        return ""


def walk(node, found, alerts, images):
    try:
        role = node.getRole()
        if role == pyatspi.ROLE_IMAGE and (node.name or "").strip():
            images.append({"role": node.getRoleName(), "name": node.name, "description": node.description or ""})
        if role in INTERACTIVE:
            entry = {"role": node.getRoleName(), "name": node.name or ""}
            described = described_by(node)
            if described:
                entry["describedBy"] = described
            found.append(entry)
        if role in ALERTS:
            alerts.append({"role": node.getRoleName(), "name": node.name or "", "text": text_of(node)})
        children = list(node)
    except Exception:
        return
    for child in children:
        if child is not None:
            walk(child, found, alerts, images)


def find(node, role, name):
    try:
        if node.getRoleName() == role and node.name == name:
            return node
        children = list(node)
    except Exception:
        return None
    for child in children:
        found = find(child, role, name) if child is not None else None
        if found is not None:
            return found
    return None


def perform(app, role, name, action):
    node = find(app, role, name)
    if node is None:
        return False
    actions = node.queryAction()
    for index in range(actions.nActions):
        if actions.getName(index) == action:
            return bool(actions.doAction(index))
    return False


def main():
    app = application(int(sys.argv[1]))
    if app is None:
        print(json.dumps({"error": "the application did not register on the accessibility bus"}))
        return 2
    if len(sys.argv) == 6 and sys.argv[2] == "--do":
        print(json.dumps({"done": perform(app, *sys.argv[3:6])}))
        return 0
    nodes, alerts, images = [], [], []
    walk(app, nodes, alerts, images)
    print(json.dumps({"interactive": nodes, "unnamed": [n for n in nodes if not n["name"].strip()], "alerts": alerts,
                      "images": images}, ensure_ascii=False))
    return 0


sys.exit(main())
