/// What the user does with the rows: activation and selection (search: `TableContainer+Search`).
extension TableContainer {
    /// The line a front end shows instead of the rows when none is shown: ``emptyText`` for
    /// an empty table, "Nothing matches “…”." when the search hides every row, nil while
    /// there are rows. Front ends read it again after each change and search.
    public var placeholder: String? {
        guard flatCount == 0 else { return nil }
        let hasRows = (0..<source.numberOfSections).contains { source.numberOfRows(inSection: $0) > 0 }
        if hasRows && !searchText.isEmpty { return tr("Nothing matches “%@”.", searchText) }
        return emptyText
    }

    /// Activates the item row at `flatIndex`: calls the callbacks' `itemActivated`, or toggles
    /// the row's selection when ``activationToggles`` is set.
    public func activate(flatIndex: Int) throws(TableContainerError) {
        if activationToggles { return try toggle(flatIndex: flatIndex) }
        let (item, _) = try itemRow(at: flatIndex)
        callbacks.itemActivated(item)
    }

    /// Toggles the selection of the item at `flatIndex` (its checkbox, with a
    /// ``SelectionCellProvider``); redraws the rows whose state changed and calls the
    /// selection callbacks.
    public func toggle(flatIndex: Int) throws(TableContainerError) {
        let (item, path) = try selectableRow(at: flatIndex)
        apply(selection.toggle(item.id), knownPaths: [item.id: path])
    }

    /// Selects the item at `flatIndex`: replaces the selection in single mode, adds to it
    /// in multiple mode.
    public func select(flatIndex: Int) throws(TableContainerError) {
        let (item, path) = try selectableRow(at: flatIndex)
        apply(selection.select(item.id), knownPaths: [item.id: path])
    }

    /// Makes `ids` the selection (the first only, in single mode).
    public func setSelection(_ ids: [TableItemID]) {
        apply(selection.set(ids), knownPaths: [:])
    }

    /// Deselects everything.
    public func clearSelection() {
        apply(selection.set([]), knownPaths: [:])
    }

    /// Registers `observer` for every change of the selection, after the callbacks' own
    /// `selectionChanged`, as long as the token lives. A front end learns here what the rows it
    /// shows cannot tell it: the selection changed while a search hides the rows concerned.
    public func onSelectionChange(_ observer: @escaping @MainActor (SelectionChange) -> Void) -> ObservationToken {
        selectionObservers.observe(observer)
    }

    /// Whether the row at `flatIndex` is a selected item.
    public func isSelected(flatIndex: Int) -> Bool {
        item(atFlatIndex: flatIndex).map { selection.isSelected($0.id) } ?? false
    }

    /// The selected items still in the source, in selection order. Costs one
    /// ``TableSource/indexPath(of:)`` per selected item.
    public var selectedItems: [TableItem] {
        selection.selectedIDs.compactMap { id in source.indexPath(of: id).map(source.item(at:)) }
    }

    // MARK: - Helpers

    private func itemRow(at flatIndex: Int) throws(TableContainerError) -> (TableItem, TableIndexPath) {
        switch position(at: flatIndex) {
        case .row(let path):
            return (source.item(at: path), path)
        case .header(let section):
            throw .headerRow(index: flatIndex, title: layout.sections[section].title ?? "")
        case nil:
            throw .rowOutOfRange(index: flatIndex, count: flatCount)
        }
    }

    private func selectableRow(at flatIndex: Int) throws(TableContainerError) -> (TableItem, TableIndexPath) {
        let row = try itemRow(at: flatIndex)
        guard selection.mode != .none else { throw .selectionDisabled(index: flatIndex) }
        return row
    }

    /// Redraws the shown rows of the identities `change` added or removed, then tells the
    /// callbacks. `knownPaths` spares a source lookup for rows whose path is known.
    private func apply(_ change: SelectionChange?, knownPaths: [TableItemID: TableIndexPath]) {
        guard let change else { return }
        let redrawn = (change.added + change.removed).compactMap { id in
            (knownPaths[id] ?? source.indexPath(of: id)).flatMap(layout.flatIndex(of:))
        }
        emit(redrawn.sorted().map { FlatChange(position: $0, removed: 1, added: 1) })
        tellSelectionChanged(change)
    }

    /// Tells the callbacks, then the observers (``onSelectionChange(_:)``), of `change`.
    func tellSelectionChanged(_ change: SelectionChange) {
        callbacks.selectionChanged(change)
        selectionObservers.announce(change)
    }
}
