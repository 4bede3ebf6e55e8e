// FoundationEssentials, not Foundation, where the toolchain has it: a plugin process loads this
// module, and Foundation's internationalisation would add 6 MiB to each (issue #37's plugin-rss).
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// A Sendable, JSON-compatible value: the payload of bus events, route data, service options
/// and front-controller parameters.
///
/// Everything that may cross the plugin C ABI is a `JSONValue`, so it can always be encoded
/// as UTF-8 JSON and decoded back without loss.
///
/// ```swift
/// let data: JSONValue = ["id": 7, "title": "Фэнтези", "tags": ["a", "b"]]
/// data["title"]?.stringValue   // "Фэнтези"
/// ```
public enum JSONValue: Sendable, Hashable {
    case null
    case bool(Bool)
    case number(Double)
    case string(String)
    case array([JSONValue])
    case object([String: JSONValue])
}

extension JSONValue {
    /// Whether the value is `null`: `event.data.isNull` for an event triggered without data.
    public var isNull: Bool { if case .null = self { return true } else { return false } }

    /// The Boolean, or nil when the value is another kind:
    /// `host.settings["enabled"]?.boolValue ?? true`.
    public var boolValue: Bool? { if case .bool(let b) = self { return b } else { return nil } }

    /// The number, or nil when the value is another kind: `event.data["celsius"]?.doubleValue ?? 0`.
    public var doubleValue: Double? { if case .number(let n) = self { return n } else { return nil } }

    /// The number as an `Int` when it is integral and in range; `nil` otherwise (`2.5`, a string):
    /// `host.settings["limit"]?.intValue ?? 10`.
    public var intValue: Int? {
        guard case .number(let n) = self, n.rounded() == n, abs(n) < 9.0e15 else { return nil }
        return Int(n)
    }

    /// The string, or nil when the value is another kind (a number is not converted):
    /// `event.data["command"]?.stringValue`.
    public var stringValue: String? { if case .string(let s) = self { return s } else { return nil } }

    /// The elements, or nil when the value is not an array:
    /// `event.data["changed"]?.arrayValue?.compactMap(\.stringValue) ?? []`.
    public var arrayValue: [JSONValue]? { if case .array(let a) = self { return a } else { return nil } }

    /// The members, or nil when the value is not an object:
    /// `event.data["parameters"]?.objectValue?.compactMapValues(\.stringValue) ?? [:]`.
    public var objectValue: [String: JSONValue]? { if case .object(let o) = self { return o } else { return nil } }

    /// Member access on an object; `nil` for a missing key or a value that is not an object.
    /// Setting a member makes the value an object: `var data: JSONValue = [:]; data["count"] = 3`.
    public subscript(key: String) -> JSONValue? {
        get { objectValue?[key] }
        set {
            var object = objectValue ?? [:]
            object[key] = newValue
            self = .object(object)
        }
    }

    /// Element access on an array; `nil` when out of range or not an array: `reply["rows"]?[0]?[1]`.
    public subscript(index: Int) -> JSONValue? {
        guard let array = arrayValue, array.indices.contains(index) else { return nil }
        return array[index]
    }
}

// MARK: - Literals

extension JSONValue: ExpressibleByNilLiteral, ExpressibleByBooleanLiteral, ExpressibleByIntegerLiteral,
    ExpressibleByFloatLiteral, ExpressibleByStringLiteral, ExpressibleByArrayLiteral,
    ExpressibleByDictionaryLiteral
{
    public init(nilLiteral: ()) { self = .null }
    public init(booleanLiteral value: Bool) { self = .bool(value) }
    public init(integerLiteral value: Int) { self = .number(Double(value)) }
    public init(floatLiteral value: Double) { self = .number(value) }
    public init(stringLiteral value: String) { self = .string(value) }
    public init(arrayLiteral elements: JSONValue...) { self = .array(elements) }
    public init(dictionaryLiteral elements: (String, JSONValue)...) {
        self = .object(Dictionary(elements, uniquingKeysWith: { _, last in last }))
    }
}

// MARK: - Codable and JSON text

extension JSONValue: Codable {
    public init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        if container.decodeNil() {
            self = .null
        } else if let b = try? container.decode(Bool.self) {
            self = .bool(b)
        } else if let n = try? container.decode(Double.self) {
            self = .number(n)
        } else if let s = try? container.decode(String.self) {
            self = .string(s)
        } else if let a = try? container.decode([JSONValue].self) {
            self = .array(a)
        } else if let o = try? container.decode([String: JSONValue].self) {
            self = .object(o)
        } else {
            throw DecodingError.dataCorruptedError(in: container, debugDescription: "not a JSON value")
        }
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        switch self {
        case .null: try container.encodeNil()
        case .bool(let b): try container.encode(b)
        case .number(let n):
            if n.rounded() == n, abs(n) < 9.0e15 { try container.encode(Int64(n)) } else { try container.encode(n) }
        case .string(let s): try container.encode(s)
        case .array(let a): try container.encode(a)
        case .object(let o): try container.encode(o)
        }
    }

    /// Parses JSON text (UTF-8, or UTF-16 or UTF-32 as `JSONDecoder` reads them). Throws
    /// `JSONValueError.malformed` naming `source`, and the line and column, on bad input:
    /// `try JSONValue(jsonData: Data(contentsOf: url), source: url.path)`.
    public init(jsonData data: Data, source: String = "JSON") throws {
        do throws(JSONTextReader.Failure) {
            self = try JSONTextReader.read(data)
        } catch {
            throw JSONValueError.malformed(source: source, reason: error.description)
        }
    }

    /// Parses JSON text given as a Swift string: `try JSONValue(jsonString: #"{"count": 3}"#)["count"]?.intValue` is 3.
    public init(jsonString: String, source: String = "JSON") throws {
        try self.init(jsonData: Data(jsonString.utf8), source: source)
    }

    /// Compact UTF-8 JSON with sorted keys (stable output for logs and tests):
    /// `try manifest.jsonData().write(to: url)`.
    public func jsonData() -> Data {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        // Encoding a JSONValue cannot fail: every case maps to a JSON primitive, and
        // non-finite numbers are written as null below.
        return (try? encoder.encode(self.finite)) ?? Data("null".utf8)
    }

    /// Compact JSON text with sorted keys: `(["b": "x", "a": true] as JSONValue).jsonString` is `{"a":true,"b":"x"}`.
    public var jsonString: String { String(decoding: jsonData(), as: UTF8.self) }

    /// The value with NaN and infinities replaced by `null` (JSON has no such numbers).
    private var finite: JSONValue {
        switch self {
        case .number(let n) where !n.isFinite: return .null
        case .array(let a): return .array(a.map(\.finite))
        case .object(let o): return .object(o.mapValues(\.finite))
        default: return self
        }
    }
}

/// Errors raised when decoding JSON text:
///
/// ```swift
/// do { _ = try JSONValue(jsonString: "{", source: "plugin.json") }
/// catch let error as JSONValueError { print(error) }   // plugin.json: malformed JSON: … (where, and why)
/// ```
public enum JSONValueError: Error, CustomStringConvertible, Equatable {
    /// The text is not valid JSON; `source` names the file, payload or message it came from.
    case malformed(source: String, reason: String)

    public var description: String {
        switch self {
        case .malformed(let source, let reason): return "\(source): malformed JSON: \(reason)"
        }
    }
}

extension JSONValue: CustomStringConvertible {
    public var description: String { jsonString }
}
