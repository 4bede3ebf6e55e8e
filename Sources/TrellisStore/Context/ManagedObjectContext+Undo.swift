/// The inverse of one change, as kept on the undo and redo stacks.
enum UndoAction {
    /// Set a value back.
    case set(ManagedObject, column: Int, value: AttributeValue)
    /// Delete an inserted (or re-inserted) object.
    case delete(ManagedObject)
    /// Insert a deleted object again, with its id and values.
    case reinsert(ManagedObject)
}

/// Undo and redo.
///
/// Every change registers its inverse. Outside an explicit group each change is its own
/// undo step; `beginUndoGroup`/`endUndoGroup` (nestable) or ``undoGroup(named:_:)``
/// make several changes one step, e.g. the insertion of a note with its title and date.
/// `insert(_:values:)` and `insert(_ record:)` group by themselves. A new change clears
/// the redo stack. `undo()` first closes any open group. The history survives saves
/// (undoing a saved change makes it pending again, to be saved) and is cleared by
/// ``rollback()``. Deletions made by SQLite's cascade rule are not undone with their
/// owner.
extension ManagedObjectContext {
    /// Whether there is a step to undo (or an open group).
    public var canUndo: Bool { !undoStack.undoGroups.isEmpty || undoStack.isGroupOpen }

    /// Whether there is an undone step to redo.
    public var canRedo: Bool { !undoStack.redoGroups.isEmpty }

    /// The name of the step `undo()` would revert, if it was given one.
    public var undoActionName: String? { undoStack.undoGroups.last?.name }

    /// The name of the step `redo()` would re-apply, if it was given one.
    public var redoActionName: String? { undoStack.redoGroups.last?.name }

    /// Whether changes register undo steps (background contexts start with `false`).
    public var isUndoRegistrationEnabled: Bool {
        get { undoStack.isEnabled }
        set { undoStack.isEnabled = newValue }
    }

    /// The most undo steps kept (100 by default).
    public var levelsOfUndo: Int {
        get { undoStack.levels }
        set { undoStack.levels = max(1, newValue) }
    }

    /// Reverts the last undo step.
    public func undo() {
        undoStack.endAllGroups()
        guard let group = undoStack.startUndo() else { return }
        for action in group.actions.reversed() { perform(action) }
        undoStack.finish()
    }

    /// Re-applies the last undone step.
    public func redo() {
        guard let group = undoStack.startRedo() else { return }
        for action in group.actions.reversed() { perform(action) }
        undoStack.finish()
    }

    /// Starts a group: the changes until the matching ``endUndoGroup()`` are one step.
    public func beginUndoGroup(named name: String? = nil) { undoStack.beginGroup(named: name) }

    /// Ends the group started by the matching ``beginUndoGroup(named:)``.
    public func endUndoGroup() { undoStack.endGroup() }

    /// Runs `body` as one undo step.
    public func undoGroup<T>(named name: String? = nil, _ body: () throws -> T) rethrows -> T {
        beginUndoGroup(named: name)
        defer { endUndoGroup() }
        return try body()
    }

    /// Forgets every undo and redo step.
    public func removeAllUndoActions() { undoStack.removeAll() }

    private func perform(_ action: UndoAction) {
        switch action {
        case .set(let object, let column, let value):
            object.setValue(value, at: column)
        case .delete(let object):
            try? delete(object)
        case .reinsert(let object):
            reinsert(object)
        }
    }
}
