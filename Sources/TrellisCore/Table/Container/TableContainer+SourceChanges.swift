/// Turning the source's announcements into changes of the flattened model.
extension TableContainer {
    func sourceDidChange(_ change: TableChange) {
        switch change {
        case .insert(let path):
            searcher.rowInserted(at: path) { searchText(at: $0) }
            emit(layout.insertRow(at: path, isVisible: isShown(path)))
        case .delete(let path, let id):
            searcher.rowDeleted(at: path)
            emit(layout.deleteRow(at: path))
            dropFromSelection([id])
        case .move(let from, let to):
            searcher.rowMoved(from: from, to: to)
            let removal = layout.deleteRow(at: from)
            let insertion = layout.insertRow(at: to, isVisible: isShown(to))
            emitMove(removal: removal, insertion: insertion)
        case .update(let path):
            searcher.rowUpdated(at: path) { searchText(at: $0) }
            emit(layout.updateRow(at: path, isVisible: isShown(path)))
        case .insertSection(let section):
            let rowCount = source.numberOfRows(inSection: section)
            searcher.sectionInserted(at: section) { foldedTexts(inSection: section, rowCount: rowCount) }
            let inserted = FlatLayout.Section(
                title: source.title(forSection: section),
                rowCount: rowCount,
                visibleRows: searcher.isFiltering ? searcher.matchingRows(inSection: section, among: nil) : nil
            )
            emit(layout.insertSection(inserted, at: section))
        case .deleteSection(let section, let removedIDs):
            searcher.sectionDeleted(at: section)
            emit(layout.deleteSection(at: section))
            dropFromSelection(removedIDs)
        case .reload:
            reload()
        }
    }

    private func isShown(_ path: TableIndexPath) -> Bool {
        !searcher.isFiltering || searcher.matches(path)
    }

    /// Delivers a move as a removal, then an insertion; while the removal is delivered the
    /// model hides the inserted rows, so each delivery matches the model's count.
    private func emitMove(removal: FlatChange?, insertion: FlatChange?) {
        guard let removal, let insertion else {
            emit(removal ?? insertion)
            return
        }
        pendingInsertion = (insertion.position, insertion.added)
        emit(removal)
        pendingInsertion = nil
        emit(insertion)
    }

    private func reload() {
        searcher.resetIndex()
        let oldCount = flatCount
        layout = makeLayout(narrowing: nil)
        if oldCount > 0 || layout.count > 0 {
            emit(FlatChange(position: 0, removed: oldCount, added: layout.count))
        }
        // A sort keeps every item: the selection stays as it is, unchecked (reading every
        // row of a million-row store would take seconds).
        guard selection.count > 0, !isReordering else { return }
        var present = Set<TableItemID>()
        for section in 0..<source.numberOfSections {
            for row in 0..<source.numberOfRows(inSection: section) {
                let id = source.item(at: TableIndexPath(section: section, row: row)).id
                if selection.isSelected(id) { present.insert(id) }
            }
        }
        if let change = selection.retain(where: present.contains) {
            tellSelectionChanged(change)
        }
    }

    private func dropFromSelection(_ ids: [TableItemID]) {
        guard !ids.isEmpty, let change = selection.remove(ids) else { return }
        tellSelectionChanged(change)
    }
}
