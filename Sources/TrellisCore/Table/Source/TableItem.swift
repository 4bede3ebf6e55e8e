/// The position of a row in a sectioned table source: a section and a row within it.
///
/// Rows of an unsectioned source are all in section 0: `TableIndexPath(row: 5)`.
public struct TableIndexPath: Hashable, Comparable, Sendable, CustomStringConvertible {
    /// The section, from 0.
    public var section: Int
    /// The row within `section`, from 0.
    public var row: Int

    /// The row `row` of section `section`.
    public init(section: Int = 0, row: Int) {
        self.section = section
        self.row = row
    }

    public static func < (lhs: TableIndexPath, rhs: TableIndexPath) -> Bool {
        (lhs.section, lhs.row) < (rhs.section, rhs.row)
    }

    /// `section/row`, e.g. `0/5`.
    public var description: String { "\(section)/\(row)" }
}

/// The stable identity of an item in a table source.
///
/// Selection is keyed by it, so it must stay the same while other rows are inserted,
/// deleted or moved. A source chooses what it wraps: a primary key, an element that is its
/// own identity, or a serial number given to the element when it entered the source.
///
/// ```swift
/// let id = TableItemID(42)
/// assert("/catalog/\(id)" == "/catalog/42")
/// ```
// AnyHashable is not Sendable by declaration, but the only initialiser stores a value that
// is `Hashable & Sendable`, so the wrapped value may be shared across isolation domains.
public struct TableItemID: Hashable, @unchecked Sendable, CustomStringConvertible {
    /// An `Int` (a serial number, an integer key) is kept as it is: wrapping one in an
    /// `AnyHashable` looks its conformances up at run time, which was a third of the cost of
    /// reading a row of a million-row `ArraySource` for a search.
    @usableFromInline
    enum Storage {
        case integer(Int)
        case other(AnyHashable)
    }

    @usableFromInline let storage: Storage

    /// Wraps `value` as an identity.
    @inlinable
    public init<Value: Hashable & Sendable>(_ value: Value) {
        if let integer = value as? Int {
            storage = .integer(integer)
        } else {
            storage = .other(AnyHashable(value))
        }
    }

    /// The wrapped identity value.
    public var base: AnyHashable {
        switch storage {
        case .integer(let integer): return AnyHashable(integer)
        case .other(let base): return base
        }
    }

    /// The wrapped value as an `Int`, when it is one (serial numbers, integer keys).
    public var intValue: Int? {
        switch storage {
        case .integer(let integer): return integer
        case .other(let base): return base.base as? Int
        }
    }

    /// Equal when the wrapped values are, as `AnyHashable` compares them.
    public static func == (lhs: TableItemID, rhs: TableItemID) -> Bool {
        if case .integer(let left) = lhs.storage, case .integer(let right) = rhs.storage { return left == right }
        return lhs.base == rhs.base
    }

    public func hash(into hasher: inout Hasher) {
        base.hash(into: &hasher)
    }

    /// The wrapped value's own description, so an identity reads well inside a route.
    public var description: String { String(describing: base.base) }
}

/// One item of a table source: its stable identity and its value.
///
/// The value is whatever the source holds (a string, a dictionary, a Codable struct, a store
/// object); cell providers and callbacks read it with ``value(as:)``.
public struct TableItem {
    /// The item's stable identity.
    public let id: TableItemID
    /// The item's value.
    public let value: Any

    /// An item with identity `id` and value `value`.
    public init(id: TableItemID, value: Any) {
        self.id = id
        self.value = value
    }

    /// The value as a `T`, or `nil` when it is something else.
    public func value<T>(as type: T.Type) -> T? { value as? T }
}
