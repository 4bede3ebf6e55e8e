/// One column of a records table: the key its cells show and the title of its header.
///
/// A column made with `value:` reads its rows through that typed function (a key path
/// such as `\Person.firstName` is one), with no key-value coding: its cells show the value, and
/// an ``ArraySource`` of those rows sorts by it directly. A column made with a key alone reads
/// the value by name (``KeyValueCellProvider``), as the store's fetched rows are read, and its
/// key is also what a `FetchedSource` sorts by in SQL.
///
/// ```swift
/// let columns = [TableColumn(key: "firstName", title: tr("First name"), value: \Person.firstName),
///                TableColumn(key: "age", title: tr("Age"), value: \Person.age)]
/// let people = TableContainer.records(ArraySource(persons), columns: columns)
/// ```
public struct TableColumn: Sendable, Hashable {
    /// The key whose values the column shows (read by ``KeyValueCellProvider`` when the
    /// column has no typed value) and sorts by.
    public let key: String
    /// The header's text, already translated.
    public let title: String
    /// The typed reading of the column's values, when it was made with one.
    @usableFromInline let typed: TypedColumnValue?

    /// A column showing `key` under `title`, read by name.
    public init(key: String, title: String) {
        self.key = key
        self.title = title
        self.typed = nil
    }

    /// A column showing `value` of each `Row` under `title`; `key` names it (for
    /// ``TableContainer/sort(by:ascending:)`` and ``TableContainer/sortOrder``).
    ///
    /// `Value`'s metatype is sendable (every concrete type's is, unless its conformances are
    /// isolated to an actor): the column sorts its rows on any thread.
    // Inlinable: the reading and sorting are then compiled for the row and value types at the
    // caller, not through generic witnesses for each of a million rows.
    @inlinable
    public init<Row, Value: Comparable & SendableMetatype>(key: String, title: String, value: @escaping @Sendable (Row) -> Value) {
        self.key = key
        self.title = title
        self.typed = TypedColumnValue(value)
    }

    /// Columns are equal when their keys and titles are (their typed readings are not compared).
    public static func == (lhs: TableColumn, rhs: TableColumn) -> Bool {
        lhs.key == rhs.key && lhs.title == rhs.title
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(key)
        hasher.combine(title)
    }
}

/// A column's typed reading of its rows, with the row type erased: each function answers nil
/// for a value that is not a row of the column's type (the caller then reads by key).
@usableFromInline
struct TypedColumnValue: Sendable {
    /// The cell's text for a row.
    @usableFromInline let text: @Sendable (Any) -> String?
    /// The rows of a source's chunks (`[[Row]]`) in the column's order, ties in their original
    /// order, as new chunks of `chunk` rows (the source's storage takes them as they are), with
    /// the original position of each row. The rows are taken out of `chunks` (left empty) and
    /// moved, not copied; `nil`, with `chunks` untouched, when they are not the column's rows.
    @usableFromInline let sorted: @Sendable (_ chunks: inout Any, _ ascending: Bool, _ chunk: Int) -> (chunks: Any, positions: [Int])?
    /// Whether one row sorts before another in the column's ascending order.
    @usableFromInline let precedes: @Sendable (Any, Any) -> Bool?

    @inlinable
    init<Row, Value: Comparable & SendableMetatype>(_ value: @escaping @Sendable (Row) -> Value) {
        text = { ($0 as? Row).map { ColumnValueOrder.text(of: value($0)) } }
        sorted = { chunks, ascending, chunk in
            guard let taken = chunks as? [[Row]] else { return nil }
            // `rows` is then the only reference to the rows the source gave away: they are moved.
            chunks = ()
            var rows = ChunkedRows(taken)
            let positions = ColumnValueOrder.stableOrder(of: rows.map(value), ascending: ascending)
            return (rows.removeAll(inOrderOf: positions, inChunksOf: chunk), positions)
        }
        precedes = { lhs, rhs in
            guard let lhs = lhs as? Row, let rhs = rhs as? Row else { return nil }
            return ColumnValueOrder.precedes(value(lhs), value(rhs))
        }
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
