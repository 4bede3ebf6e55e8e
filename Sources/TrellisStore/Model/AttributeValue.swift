import Foundation
import TrellisCore

/// The type of an attribute, as written in the model file (`"type": "string"`).
///
/// | type      | Swift value            | SQLite storage                       |
/// |-----------|------------------------|--------------------------------------|
/// | `string`  | `String`               | TEXT                                 |
/// | `integer` | `Int`                  | INTEGER                              |
/// | `double`  | `Double`               | REAL                                 |
/// | `bool`    | `Bool`                 | INTEGER 0 or 1                       |
/// | `date`    | `Date`                 | REAL, seconds since 1970-01-01 UTC   |
/// | `uuid`    | `UUID`                 | TEXT, upper-case canonical form      |
/// | `data`    | `Data`                 | BLOB                                 |
/// | `json`    | `JSONValue`            | TEXT, compact JSON with sorted keys  |
public enum AttributeType: String, Sendable, Hashable, CaseIterable {
    case string, integer, double, bool, date, uuid, data, json

    /// The SQLite column type used in `CREATE TABLE`.
    var sqlType: String {
        switch self {
        case .string, .uuid, .json: return "TEXT"
        case .integer, .bool: return "INTEGER"
        case .double, .date: return "REAL"
        case .data: return "BLOB"
        }
    }
}

/// The value of one attribute of a managed object.
///
/// Literals make key-value code short:
///
/// ```swift
/// note["title"] = "Shopping"          // .string
/// person["age"] = 42                  // .integer
/// person["age"] = nil                 // .null
/// note["created"] = .date(Date())
/// ```
public enum AttributeValue: Sendable, Hashable {
    case null
    case string(String)
    case integer(Int)
    case double(Double)
    case bool(Bool)
    case date(Date)
    case uuid(UUID)
    case data(Data)
    case json(JSONValue)

    /// Whether the value is `nil`.
    public var isNull: Bool { if case .null = self { return true } else { return false } }

    /// The text, for a `.string`.
    public var stringValue: String? { if case .string(let v) = self { return v } else { return nil } }

    /// The integer, for an `.integer`.
    public var intValue: Int? { if case .integer(let v) = self { return v } else { return nil } }

    /// The value as a `Double`; integers are converted.
    public var doubleValue: Double? {
        switch self {
        case .double(let v): return v
        case .integer(let v): return Double(v)
        default: return nil
        }
    }

    /// The flag, for a `.bool`.
    public var boolValue: Bool? { if case .bool(let v) = self { return v } else { return nil } }

    /// The date, for a `.date`.
    public var dateValue: Date? { if case .date(let v) = self { return v } else { return nil } }

    /// The UUID, for a `.uuid` (also a relationship's value).
    public var uuidValue: UUID? { if case .uuid(let v) = self { return v } else { return nil } }

    /// The bytes, for a `.data`.
    public var dataValue: Data? { if case .data(let v) = self { return v } else { return nil } }

    /// The JSON, for a `.json`.
    public var jsonValue: JSONValue? { if case .json(let v) = self { return v } else { return nil } }

    /// The name of the value's kind, for error messages (`"string"`, `"null"`, ...).
    public var kindName: String {
        switch self {
        case .null: return "null"
        case .string: return "string"
        case .integer: return "integer"
        case .double: return "double"
        case .bool: return "bool"
        case .date: return "date"
        case .uuid: return "uuid"
        case .data: return "data"
        case .json: return "json"
        }
    }

    /// The value converted to `type` when that is lossless (an integer for a double
    /// attribute), the value itself when it already has that type, `nil` otherwise.
    /// `.null` conforms to every type; optionality is checked separately.
    public func conformed(to type: AttributeType) -> AttributeValue? {
        switch (self, type) {
        case (.null, _), (.string, .string), (.integer, .integer), (.double, .double), (.bool, .bool),
            (.date, .date), (.uuid, .uuid), (.data, .data), (.json, .json):
            return self
        case (.integer(let v), .double):
            return .double(Double(v))
        default:
            return nil
        }
    }

    /// The value as JSON, for events and the model file: dates as ISO 8601 text, UUIDs as
    /// text, data as base64 text.
    public var json: JSONValue {
        switch self {
        case .null: return .null
        case .string(let v): return .string(v)
        case .integer(let v): return .number(Double(v))
        case .double(let v): return .number(v)
        case .bool(let v): return .bool(v)
        case .date(let v): return .string(AttributeValue.iso8601(v))
        case .uuid(let v): return .string(v.uuidString)
        case .data(let v): return .string(v.base64EncodedString())
        case .json(let v): return v
        }
    }

    /// Reads a value of `type` from its JSON form (the inverse of ``json``); `nil` when the
    /// JSON does not hold a value of that type.
    public init?(json: JSONValue, as type: AttributeType) {
        if json.isNull { self = .null; return }
        switch type {
        case .string:
            guard let v = json.stringValue else { return nil }
            self = .string(v)
        case .integer:
            guard let v = json.intValue else { return nil }
            self = .integer(v)
        case .double:
            guard let v = json.doubleValue else { return nil }
            self = .double(v)
        case .bool:
            guard let v = json.boolValue else { return nil }
            self = .bool(v)
        case .date:
            guard let text = json.stringValue, let v = AttributeValue.parseISO8601(text) else { return nil }
            self = .date(v)
        case .uuid:
            guard let text = json.stringValue, let v = UUID(uuidString: text) else { return nil }
            self = .uuid(v)
        case .data:
            guard let text = json.stringValue, let v = Data(base64Encoded: text) else { return nil }
            self = .data(v)
        case .json:
            self = .json(json)
        }
    }

    static func iso8601(_ date: Date) -> String {
        // The format style truncates the binary fraction, so 0.123 (stored as 0.12299…) would
        // print as .122 and drift back 1 ms on every write: write the nearest whole millisecond
        // from an integer count instead.
        let milliseconds = (date.timeIntervalSince1970 * 1000).rounded()
        let seconds = (milliseconds / 1000).rounded(.down)
        let whole = Date.ISO8601FormatStyle(includingFractionalSeconds: true)
            .format(Date(timeIntervalSince1970: seconds + 0.0005))  // prints ".000Z"
        return whole.dropLast(4) + String(format: "%03dZ", Int(milliseconds - seconds * 1000))
    }

    static func parseISO8601(_ text: String) -> Date? {
        if let date = try? Date.ISO8601FormatStyle(includingFractionalSeconds: true).parse(text) { return date }
        return try? Date.ISO8601FormatStyle().parse(text)
    }
}

extension AttributeValue: ExpressibleByNilLiteral, ExpressibleByStringLiteral, ExpressibleByIntegerLiteral,
    ExpressibleByFloatLiteral, ExpressibleByBooleanLiteral
{
    public init(nilLiteral: ()) { self = .null }
    public init(stringLiteral value: String) { self = .string(value) }
    public init(integerLiteral value: Int) { self = .integer(value) }
    public init(floatLiteral value: Double) { self = .double(value) }
    public init(booleanLiteral value: Bool) { self = .bool(value) }
}

extension AttributeValue: CustomStringConvertible {
    public var description: String {
        switch self {
        case .null: return "nil"
        case .string(let v): return "\"\(v)\""
        default: return json.jsonString
        }
    }
}
