import OrderedCollections

/// How many items a table lets the user select.
public enum SelectionMode: Sendable, Equatable {
    /// No selection: rows can only be activated.
    case none
    /// At most one item; selecting another replaces it.
    case single
    /// Any number of items.
    case multiple
}

/// The selection of a table, keyed by item identity (a table controller in the seeds'
/// sense: the `JLSelectionProvider` base class for selections).
///
/// Because it holds identities, not positions, the selection survives filtering and live
/// updates: rows inserted, deleted or moved around a selected item leave it selected, and
/// deleting a selected item drops it. Change it through the ``TableContainer``
/// (``TableContainer/toggle(flatIndex:)``, ``TableContainer/select(flatIndex:)``,
/// ``TableContainer/setSelection(_:)``) so rows are redrawn and callbacks called.
///
/// ```swift
/// let selected = container.selection.selectedIDs   // [TableItemID(3), TableItemID(17)], say
/// let third = container.selection.isSelected(TableItemID(3))   // true then
/// ```
@MainActor
public final class SelectionController {
    /// The selection mode.
    public let mode: SelectionMode
    private var selected: OrderedSet<TableItemID> = []

    init(mode: SelectionMode) {
        self.mode = mode
    }

    /// The selected identities, in the order they were selected.
    public var selectedIDs: [TableItemID] { selected.elements }

    /// How many items are selected.
    public var count: Int { selected.count }

    /// Whether the item with identity `id` is selected.
    public func isSelected(_ id: TableItemID) -> Bool {
        selected.contains(id)
    }

    // MARK: - Changes (through the container)

    /// Selects `id` if it is not selected, deselects it if it is.
    func toggle(_ id: TableItemID) -> SelectionChange? {
        selected.contains(id) ? replace(with: selected.filter { $0 != id }) : select(id)
    }

    /// Selects `id`: replaces the selection in single mode, adds to it in multiple mode.
    func select(_ id: TableItemID) -> SelectionChange? {
        switch mode {
        case .none: return nil
        case .single: return replace(with: [id])
        case .multiple: return replace(with: selected.union([id]))
        }
    }

    /// Sets the selection to `ids`, keeping only the first in single mode and none in `.none`.
    func set(_ ids: [TableItemID]) -> SelectionChange? {
        switch mode {
        case .none: return replace(with: [])
        case .single: return replace(with: OrderedSet(ids.prefix(1)))
        case .multiple: return replace(with: OrderedSet(ids))
        }
    }

    /// Drops `ids` (their items were deleted).
    func remove(_ ids: some Sequence<TableItemID>) -> SelectionChange? {
        var remaining = selected
        for id in ids { remaining.remove(id) }
        return replace(with: remaining)
    }

    /// Keeps only the identities for which `isPresent` holds.
    func retain(where isPresent: (TableItemID) -> Bool) -> SelectionChange? {
        replace(with: selected.filter(isPresent))
    }

    /// Makes `newSelection` the selection; `nil` when nothing changed.
    private func replace(with newSelection: OrderedSet<TableItemID>) -> SelectionChange? {
        let added = newSelection.filter { !selected.contains($0) }
        let removed = selected.filter { !newSelection.contains($0) }
        guard !added.isEmpty || !removed.isEmpty else { return nil }
        selected = newSelection
        return SelectionChange(selected: selected.elements, added: added.elements, removed: removed.elements)
    }
}
