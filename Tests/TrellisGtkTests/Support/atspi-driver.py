#!/usr/bin/python3
"""A screen reader's view of a running Trellis window, over AT-SPI (pyatspi, the library Orca
is built on), driven one JSON command per line on standard input, one JSON reply per line on
standard output. For the GUI tests that act as a person using assistive technologies does.

Usage: atspi-driver.py PID        (the application's process; waits up to 20 s for it)

Commands (a node is found by its role name and accessible name — or, with "contains", a name
holding that text — in every window of the app, the first match in tree order; "within"
narrows to the subtree of the window so named):
  {"op": "find", "role": R, "name": N}      -> {"found", "states", "extents" [x, y, w, h] in
                                               window coordinates, "description",
                                               "describedBy", "children", "text"}
  {"op": "focused"}                          -> the node with state "focused": {"role", "name",
                                               "states", "description"} or {"found": false}
  {"op": "do", "role", "name", "action"}     -> {"done"}: performs the AT-SPI action
  {"op": "names", "role": R}                 -> {"names"}: every node of role R
  {"op": "windows"}                          -> {"names"}: the app's windows (frames, dialogs)
  {"op": "classNames"}                       -> {"nodes"}: "role: name" of every node named
                                               after a GTK class ("GtkListItemWidget"), which a
                                               screen reader would read out
Every reply has "ok": true, or "ok": false and "error".
"""
import json
import sys
import time

import pyatspi


def application(pid, timeout=20.0):
    deadline = time.time() + timeout
    while time.time() < deadline:
        for app in pyatspi.Registry.getDesktop(0):
            try:
                if app is not None and app.get_process_id() == pid:
                    return app
            except Exception:
                continue
        time.sleep(0.2)
    return None


def children(node):
    try:
        return [child for child in node if child is not None]
    except Exception:
        return []


def walk(node):
    yield node
    for child in children(node):
        yield from walk(child)


def roots(app, within):
    frames = children(app)
    if within is None:
        return frames
    return [frame for frame in frames if frame.name == within]


def find(app, role, name, within=None, contains=None):
    for root in roots(app, within):
        for node in walk(root):
            try:
                if node.getRoleName() == role and (name is None or node.name == name) \
                        and (contains is None or contains in (node.name or "")):
                    return node
            except Exception:
                continue
    return None


def states(node):
    try:
        return sorted(pyatspi.stateToString(state) for state in node.getState().getStates())
    except Exception:
        return []


def text_of(node):
    try:
        text = node.queryText()
        return text.getText(0, text.characterCount)
    except Exception:
        return None


def described_by(node):
    names = []
    try:
        for relation in node.getRelationSet():
            if relation.getRelationType() == pyatspi.RELATION_DESCRIBED_BY:
                names += [relation.getTarget(i).name for i in range(relation.getNTargets())]
    except Exception:
        pass
    return names


def extents(node):
    try:
        box = node.queryComponent().getExtents(pyatspi.WINDOW_COORDS)
        return [box.x, box.y, box.width, box.height]
    except Exception:
        return None


def describe(node):
    return {"found": True, "role": node.getRoleName(), "name": node.name or "", "states": states(node),
            "description": node.description or "", "describedBy": described_by(node),
            "children": node.childCount, "extents": extents(node), "text": text_of(node)}


def perform(node, action):
    actions = node.queryAction()
    for index in range(actions.nActions):
        if actions.getName(index) == action:
            return bool(actions.doAction(index))
    return False


def handle(app, command):
    op = command.get("op")
    within = command.get("within")
    if op == "find":
        node = find(app, command["role"], command.get("name"), within, command.get("contains"))
        return describe(node) if node is not None else {"found": False}
    if op == "focused":
        for root in roots(app, within):
            for node in walk(root):
                if "focused" in states(node):
                    return describe(node)
        return {"found": False}
    if op == "do":
        node = find(app, command["role"], command["name"], within)
        return {"done": node is not None and perform(node, command["action"])}
    if op == "names":
        return {"names": [node.name or "" for root in roots(app, within) for node in walk(root)
                          if node.getRoleName() == command["role"]]}
    if op == "classNames":
        return {"nodes": ["%s: %s" % (node.getRoleName(), node.name) for root in roots(app, within) for node in walk(root)
                          if (node.name or "").startswith("Gtk")]}
    if op == "windows":
        return {"names": [frame.name or "" for frame in children(app)]}
    raise ValueError("unknown op %r" % op)


def main():
    app = application(int(sys.argv[1]))
    if app is None:
        print(json.dumps({"ok": False, "error": "the application did not register on the accessibility bus"}), flush=True)
        return 2
    print(json.dumps({"ok": True, "ready": True}), flush=True)
    for line in sys.stdin:
        if not line.strip():
            continue
        try:
            reply = handle(app, json.loads(line))
            reply["ok"] = True
        except Exception as error:
            reply = {"ok": False, "error": "%s: %s" % (type(error).__name__, error)}
        print(json.dumps(reply, ensure_ascii=False), flush=True)
    return 0


sys.exit(main())
