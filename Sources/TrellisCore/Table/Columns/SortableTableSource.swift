/// A table source that can reorder its rows by a column when a header is clicked.
///
/// Sorting keeps the items and their identities and changes their order only; the source
/// announces it as `.reload`. Ties keep the order they had, so sorting by one column and
/// then by another orders by the second, then the first. ``ArraySource`` sorts in memory;
/// TrellisStore's `FetchedSource` changes its request's sort keys and fetches again (SQL
/// `ORDER BY`).
///
/// ```swift
/// let people: any SortableTableSource = ArraySource(persons)
/// try people.sort(by: "age", ascending: false)  // oldest first
/// ```
@MainActor
public protocol SortableTableSource: TableSource {
    /// Orders the rows of each section by the values of `key`; ties keep their order.
    func sort(by key: String, ascending: Bool) throws

    /// Orders the rows by `column`: by its typed values when the source can read them (an
    /// ``ArraySource`` of the column's row type), else by its key. By default, by its key.
    func sort(by column: TableColumn, ascending: Bool) throws
}

extension SortableTableSource {
    public func sort(by column: TableColumn, ascending: Bool) throws {
        try sort(by: column.key, ascending: ascending)
    }
}

/// Why a table could not be sorted by a column.
public enum TableSortError: Error, CustomStringConvertible, Equatable {
    /// The table's source (of the type named) cannot sort.
    case notSortable(source: String)
    /// The table has no column `key`; its columns are `columns`.
    case unknownColumn(key: String, columns: [String])
    /// The source failed to sort by `key`.
    case failed(key: String, reason: String)

    public var description: String {
        switch self {
        case .notSortable(let source):
            return "the table cannot be sorted: its source (\(source)) does not sort"
        case .unknownColumn(let key, let columns):
            return "the table has no column \"\(key)\" (its columns: \(columns.joined(separator: ", ")))"
        case .failed(let key, let reason):
            return "sorting by \"\(key)\" failed: \(reason)"
        }
    }
}
