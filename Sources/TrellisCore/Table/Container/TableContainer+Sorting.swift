/// Sorting a table by one of its columns, as a click on a column header does.
extension TableContainer {
    /// Asks the source to order its rows by `key`, then shows them in the new order
    /// (announced as one change of every row); the selection stays.
    ///
    /// The source must be a ``SortableTableSource``: an ``ArraySource`` sorts in memory
    /// (stable; by the column's typed values when it has them), TrellisStore's `FetchedSource`
    /// fetches again with SQL `ORDER BY key`. When the table has ``columns``, `key` must be
    /// one of theirs.
    ///
    /// ```swift
    /// let people = TableContainer.records(ArraySource(persons), columns: columns)
    /// try people.sort(by: "age", ascending: false)
    /// assert(people.sortOrder == ColumnSort(key: "age", ascending: false))  // the header shows age ▼
    /// ```
    public func sort(by key: String, ascending: Bool = true) throws(TableSortError) {
        guard let sortable = source as? any SortableTableSource else {
            throw .notSortable(source: String(describing: type(of: source)))
        }
        let column = columns?.first { $0.key == key }
        if let columns, column == nil {
            throw .unknownColumn(key: key, columns: columns.map(\.key))
        }
        isReordering = true
        defer { isReordering = false }
        do {
            if let column {
                try sortable.sort(by: column, ascending: ascending)
            } else {
                try sortable.sort(by: key, ascending: ascending)
            }
        } catch {
            throw .failed(key: key, reason: String(describing: error))
        }
        sortOrder = ColumnSort(key: key, ascending: ascending)
    }

    /// The titles of ``columns`` (empty for a list).
    public var columnTitles: [String] { columns?.map(\.title) ?? [] }
}
