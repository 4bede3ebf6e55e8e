/// An undo and redo stack of named change groups (Foundation has no `UndoManager` on
/// Linux). The context registers the inverse of every change; ``ManagedObjectContext``
/// documents the grouping rules.
struct UndoStack<Action> {
    struct Group {
        var name: String?
        var actions: [Action]
    }

    private enum Mode { case normal, undoing, redoing }

    private(set) var undoGroups: [Group] = []
    private(set) var redoGroups: [Group] = []
    /// The explicit group being filled, while `depth > 0`.
    private var open: Group?
    private var depth = 0
    private var mode = Mode.normal
    /// The inverse actions registered while an undo or redo runs.
    private var collecting = Group(name: nil, actions: [])

    /// The most groups kept; older ones are forgotten.
    var levels = 100
    var isEnabled = true

    var isGroupOpen: Bool { depth > 0 }

    mutating func beginGroup(named name: String?) {
        depth += 1
        if depth == 1 { open = Group(name: name, actions: []) }
    }

    mutating func endGroup() {
        guard depth > 0 else { return }
        depth -= 1
        if depth == 0, let group = open {
            open = nil
            if !group.actions.isEmpty { push(group) }
        }
    }

    /// Closes every open group.
    mutating func endAllGroups() {
        while depth > 0 { endGroup() }
    }

    /// Records the action that undoes a change just made: in the running undo or redo, in
    /// the open group, or as a group of its own. A new change forgets what could be redone.
    mutating func register(_ action: Action) {
        guard isEnabled else { return }
        switch mode {
        case .undoing, .redoing:
            collecting.actions.append(action)
        case .normal:
            if depth > 0 {
                open?.actions.append(action)
            } else {
                push(Group(name: nil, actions: [action]))
            }
            redoGroups.removeAll()
        }
    }

    /// Takes the group to undo; its actions run in reverse order, then ``finish()``.
    mutating func startUndo() -> Group? {
        guard let group = undoGroups.popLast() else { return nil }
        mode = .undoing
        collecting = Group(name: group.name, actions: [])
        return group
    }

    /// Takes the group to redo; its actions run in reverse order, then ``finish()``.
    mutating func startRedo() -> Group? {
        guard let group = redoGroups.popLast() else { return nil }
        mode = .redoing
        collecting = Group(name: group.name, actions: [])
        return group
    }

    /// Files the inverse actions collected by an undo (for redo) or a redo (for undo).
    mutating func finish() {
        let group = collecting
        collecting = Group(name: nil, actions: [])
        defer { mode = .normal }
        guard !group.actions.isEmpty else { return }
        if mode == .undoing { redoGroups.append(group) } else { push(group) }
    }

    mutating func removeAll() {
        undoGroups.removeAll()
        redoGroups.removeAll()
        open = nil
        depth = 0
    }

    private mutating func push(_ group: Group) {
        undoGroups.append(group)
        if undoGroups.count > levels { undoGroups.removeFirst(undoGroups.count - levels) }
    }
}
