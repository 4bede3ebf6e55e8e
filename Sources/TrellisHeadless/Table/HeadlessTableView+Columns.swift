import TrellisCore

/// A records table with ``TableContainer/columns`` shown as aligned columns.
extension HeadlessTableView {
    /// What the screen shows of the table: for a table with columns, a header line of
    /// their titles, a rule and the rows aligned under them (see `AlignedColumns`);
    /// otherwise ``render()``, one line per row.
    ///
    /// ```swift
    /// let view = HeadlessTableView(container: .records(ArraySource(persons), columns: columns))
    /// let lines = view.screenLines()  // ["First name  Age", "----------  ---", "Ada          36", …]
    /// ```
    public func screenLines() -> [String] {
        guard let columns = container.columns else { return render() }
        let rows = (0..<container.flatCount).compactMap { container.flatRow(at: $0) }
        return AlignedColumns(columns: columns, sort: container.sortOrder, rows: rows).lines
    }

    /// Clicks the header of the column `key`, as a person sorting the table does: sorts
    /// ascending, or descending when the table is sorted by that column ascending already.
    public func clickHeader(key: String) throws(TableSortError) {
        let ascending = !(container.sortOrder == ColumnSort(key: key, ascending: true))
        try container.sort(by: key, ascending: ascending)
    }
}
