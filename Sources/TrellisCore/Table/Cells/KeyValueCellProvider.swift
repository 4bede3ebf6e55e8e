import Foundation

/// Shows the values of given keys of an item, one column per key
/// (the seeds' `JLKeyValueCellProvider`).
///
/// A column made with a typed value (`TableColumn(key:title:value:)`, a key path such as
/// `\Person.firstName`) reads it directly from its own row type. Otherwise it reads, in this
/// order: ``KeyValueCoding`` values (store objects), `JSONValue` objects, `[String: JSONValue]`
/// and other `[String: Any]` dictionaries, and `Encodable` values (encoded to a `JSONValue`
/// once per cell, then read by key). A missing key, `null` or an unsupported value shows as an
/// empty column.
///
/// Made with titled ``TableColumn``s, it also declares the columns of its table: a
/// container using it has ``TableContainer/columns``, and the GTK front end shows it as a
/// `GtkColumnView` with a header per column.
///
/// ```swift
/// let people = TableContainer(
///     source: ArraySource(persons),
///     cells: KeyValueCellProvider(keys: ["firstName", "lastName", "age"])
/// )
/// let titled = KeyValueCellProvider(columns: [TableColumn(key: "firstName", title: tr("First name"))])
/// ```
public struct KeyValueCellProvider: CellProvider {
    /// The keys shown, one column each.
    public let keys: [String]
    /// The titled columns, when the provider was made with them; `nil` for keys alone.
    public let columns: [TableColumn]?

    /// A provider showing `keys`, with no column titles (a one-line row per item).
    public init(keys: [String]) {
        self.keys = keys
        self.columns = nil
    }

    /// A provider showing the keys of `columns`, which it declares as its table's columns.
    public init(columns: [TableColumn]) {
        self.keys = columns.map(\.key)
        self.columns = columns
    }

    public func cell(for item: TableItem, context: CellContext) -> Cell {
        // Prepared when a column is read by key (for an Encodable value, that encodes it).
        var lookup: ((String) -> JSONValue?)?
        func text(ofKey key: String) -> String {
            let read = lookup ?? Self.lookup(for: item.value)
            lookup = read
            return read(key).map(Self.text) ?? ""
        }
        guard let columns else { return Cell(columns: keys.map(text(ofKey:))) }
        // A typed column reads its own value; a column of another row type, or of a key alone, by key.
        return Cell(columns: columns.map { column in column.typed?.text(item.value) ?? text(ofKey: column.key) })
    }

    /// The text of a value in a column: strings as they are, integral numbers without a
    /// fraction, `null` empty, arrays and objects as compact JSON.
    public nonisolated static func text(of value: JSONValue) -> String {
        switch value {
        case .null: return ""
        case .bool(let flag): return flag ? "true" : "false"
        case .number(let number): return value.intValue.map(String.init) ?? String(number)
        case .string(let string): return string
        case .array, .object: return value.jsonString
        }
    }

    /// The value of `key` in `value`, read as the cells read it (also what an in-memory
    /// sort by a column compares).
    static func value(of value: Any, forKey key: String) -> JSONValue? {
        // The common kinds directly, without making a lookup closure per value.
        switch value {
        case let coding as any KeyValueCoding: return coding.value(forKey: key)
        case let json as JSONValue: return json[key]
        case let dictionary as [String: JSONValue]: return dictionary[key]
        default: return lookup(for: value)(key)
        }
    }

    /// A function reading keys of `value`, prepared once per cell.
    private static func lookup(for value: Any) -> (String) -> JSONValue? {
        switch value {
        case let coding as any KeyValueCoding:
            return { coding.value(forKey: $0) }
        case let json as JSONValue:
            return { json[$0] }
        case let dictionary as [String: JSONValue]:
            return { dictionary[$0] }
        case let dictionary as [String: Any]:
            return { dictionary[$0].map(jsonValue(of:)) }
        case let encodable as any Encodable:
            let json = encoded(encodable)
            return { json[$0] }
        default:
            return { _ in nil }
        }
    }

    /// A dictionary value as JSON: JSON values and strings as they are, numbers and
    /// booleans as numbers and booleans, anything else by its description.
    private static func jsonValue(of value: Any) -> JSONValue {
        switch value {
        case let json as JSONValue: return json
        case let string as String: return .string(string)
        case let flag as Bool: return .bool(flag)
        case let integer as Int: return .number(Double(integer))
        case let number as Double: return .number(number)
        case let encodable as any Encodable: return encoded(encodable)
        default: return .string(String(describing: value))
        }
    }

    private static func encoded(_ value: any Encodable) -> JSONValue {
        do {
            let data = try JSONEncoder().encode(value)
            return try JSONValue(jsonData: data, source: "cell value \(type(of: value))")
        } catch {
            tableLogger.debug("cannot encode a \(type(of: value)) for a cell: \(error)")
            return .null
        }
    }
}
