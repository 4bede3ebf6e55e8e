/// What changed in a selection, delivered to ``CallbackHandler/selectionChanged(_:)``.
public struct SelectionChange: Sendable, Equatable {
    /// Every selected identity after the change, in the order they were selected.
    public var selected: [TableItemID]
    /// The identities that became selected.
    public var added: [TableItemID]
    /// The identities that stopped being selected (deselected, or their item was deleted).
    public var removed: [TableItemID]

    /// A change to `selected`, having added `added` and removed `removed`.
    public init(selected: [TableItemID], added: [TableItemID], removed: [TableItemID]) {
        self.selected = selected
        self.added = added
        self.removed = removed
    }
}

/// Acts on what the user did with a row: the action strategy of a ``TableContainer``
/// (the seeds' `JLCallbackHandler`). ``StandardCallbacks`` covers the common cases.
///
/// ```swift
/// final class Logbook: CallbackHandler {
///     func itemActivated(_ item: TableItem) { print("opened", item.id) }
///     func selectionChanged(_ change: SelectionChange) { print(change.selected) }
/// }
/// ```
@MainActor
public protocol CallbackHandler {
    /// The user activated the row of `item` (a click, Enter, a double click).
    func itemActivated(_ item: TableItem)

    /// The selection changed, by the user or because selected items were deleted.
    func selectionChanged(_ change: SelectionChange)
}
