/// One column of a records table: the key its cells show and the title of its header.
///
/// ```swift
/// let columns = [TableColumn(key: "firstName", title: tr("First name")),
///                TableColumn(key: "age", title: tr("Age"))]
/// let people = TableContainer.records(ArraySource(persons), columns: columns)
/// ```
public struct TableColumn: Sendable, Hashable {
    /// The key whose values the column shows (read by ``KeyValueCellProvider``) and sorts by.
    public let key: String
    /// The header's text, already translated.
    public let title: String

    /// A column showing `key` under `title`.
    public init(key: String, title: String) {
        self.key = key
        self.title = title
    }
}

/// How a table is sorted by a column: the column's key and the direction.
public struct ColumnSort: Sendable, Hashable, CustomStringConvertible {
    /// The key of the column sorted by.
    public let key: String
    /// Smallest first (`true`) or largest first.
    public let ascending: Bool

    /// Sorting by `key`, ascending unless told.
    public init(key: String, ascending: Bool = true) {
        self.key = key
        self.ascending = ascending
    }

    /// `key ▲` or `key ▼`.
    public var description: String { "\(key) \(ascending ? "▲" : "▼")" }
}
