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
/// let data: JSONValue = ["id": 7, "title": "Фэнтези", "tags": ["a", "b"], "draft": false, "note": nil]
/// assert(data["title"]?.stringValue == "Фэнтези")
/// assert(data == .object(["id": .number(7), "title": .string("Фэнтези"), "tags": .array([.string("a"), .string("b")]),
///                         "draft": .bool(false), "note": .null]))
/// ```
///
/// A number is a `Double`, as in JavaScript: integers are exact up to 2⁵³, and ``intValue``
/// reads them back.
public enum JSONValue: Sendable, Hashable {
    /// JSON's `null`: the literal `nil`.
    case null
    /// `true` or `false`: the literals `true` and `false`.
    case bool(Bool)
    /// A number (JSON has one kind): an integer or decimal literal, or `.number(Double(n))`.
    case number(Double)
    /// A string: a string literal, or `.string(text)` for a variable.
    case string(String)
    /// An array of values: an array literal.
    case array([JSONValue])
    /// An object, its members by key (JSON's member order is not kept): a dictionary literal.
    case object([String: JSONValue])
}

extension JSONValue {
    /// Whether the value is `null`, such as the data of an event triggered without any.
    ///
    /// ```swift
    /// let data: JSONValue = nil
    /// assert(data.isNull && !JSONValue.object([:]).isNull)
    /// ```
    public var isNull: Bool { if case .null = self { return true } else { return false } }

    /// The Boolean, or nil when the value is another kind.
    ///
    /// ```swift
    /// let settings: JSONValue = ["enabled": false, "limit": 10]
    /// assert(settings["enabled"]?.boolValue == false && settings["limit"]?.boolValue == nil)
    /// ```
    public var boolValue: Bool? { if case .bool(let b) = self { return b } else { return nil } }

    /// The number, or nil when the value is another kind.
    ///
    /// ```swift
    /// let reading: JSONValue = ["celsius": 21.5, "city": "Paris"]
    /// assert(reading["celsius"]?.doubleValue == 21.5 && reading["city"]?.doubleValue == nil)
    /// ```
    public var doubleValue: Double? { if case .number(let n) = self { return n } else { return nil } }

    /// The number as an `Int` when it is integral and in range; `nil` otherwise (`2.5`, a string).
    ///
    /// ```swift
    /// let settings: JSONValue = ["limit": 10, "ratio": 2.5, "name": "10"]
    /// assert(settings["limit"]?.intValue == 10)
    /// assert(settings["ratio"]?.intValue == nil && settings["name"]?.intValue == nil)
    /// ```
    public var intValue: Int? {
        guard case .number(let n) = self, n.rounded() == n, abs(n) < 9.0e15 else { return nil }
        return Int(n)
    }

    /// The string, or nil when the value is another kind (a number is not converted).
    ///
    /// ```swift
    /// let data: JSONValue = ["command": "add", "count": 3]
    /// assert(data["command"]?.stringValue == "add" && data["count"]?.stringValue == nil)
    /// ```
    public var stringValue: String? { if case .string(let s) = self { return s } else { return nil } }

    /// The elements, or nil when the value is not an array.
    ///
    /// ```swift
    /// let data: JSONValue = ["changed": ["limit", "label"]]
    /// assert(data["changed"]?.arrayValue?.compactMap(\.stringValue) == ["limit", "label"])
    /// ```
    public var arrayValue: [JSONValue]? { if case .array(let a) = self { return a } else { return nil } }

    /// The members, or nil when the value is not an object.
    ///
    /// ```swift
    /// let data: JSONValue = ["parameters": ["id": "5", "page": 2]]
    /// assert(data["parameters"]?.objectValue?.compactMapValues(\.stringValue) == ["id": "5"])
    /// ```
    public var objectValue: [String: JSONValue]? { if case .object(let o) = self { return o } else { return nil } }

    /// Member access on an object; `nil` for a missing key or a value that is not an object.
    /// Setting a member makes the value an object (replacing another kind); setting nil removes it.
    ///
    /// ```swift
    /// var data: JSONValue = ["item": "count"]
    /// data["text"] = "3 items"
    /// data["item"] = nil
    /// assert(data == ["text": "3 items"] && data["missing"] == nil)
    /// ```
    public subscript(key: String) -> JSONValue? {
        get { objectValue?[key] }
        set {
            var object = objectValue ?? [:]
            object[key] = newValue
            self = .object(object)
        }
    }

    /// Element access on an array; `nil` when out of range or not an array.
    ///
    /// ```swift
    /// let reply: JSONValue = ["rows": [["Tea", "2"], ["Milk", "1"]]]
    /// assert(reply["rows"]?[0]?[1] == "2" && reply["rows"]?[5] == nil)
    /// ```
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
    /// `nil` is `null`.
    ///
    /// ```swift
    /// let note: JSONValue = nil
    /// assert(note == .null)
    /// ```
    public init(nilLiteral: ()) { self = .null }
    /// `true` and `false` are Booleans.
    ///
    /// ```swift
    /// let on: JSONValue = true
    /// assert(on == .bool(true))
    /// ```
    public init(booleanLiteral value: Bool) { self = .bool(value) }
    /// A whole number is a number; a variable needs `.number(Double(n))`.
    ///
    /// ```swift
    /// let count = 3
    /// let data: JSONValue = ["limit": 10, "count": .number(Double(count))]
    /// assert(data["limit"] == .number(10))
    /// ```
    public init(integerLiteral value: Int) { self = .number(Double(value)) }
    /// A decimal number is a number.
    ///
    /// ```swift
    /// let celsius: JSONValue = 21.5
    /// assert(celsius == .number(21.5))
    /// ```
    public init(floatLiteral value: Double) { self = .number(value) }
    /// A string literal is a string; a variable, or an interpolation, needs `.string(…)`.
    ///
    /// ```swift
    /// let text = "3 items"
    /// let status: JSONValue = ["item": "count", "text": .string(text), "title": .string("\(text) on the shelf")]
    /// assert(status["text"] == "3 items")
    /// ```
    public init(stringLiteral value: String) { self = .string(value) }
    /// An array literal is an array of values.
    ///
    /// ```swift
    /// let row: JSONValue = ["Tea", 2, true]
    /// assert(row[1] == .number(2))
    /// ```
    public init(arrayLiteral elements: JSONValue...) { self = .array(elements) }
    /// A dictionary literal is an object; of two equal keys, the last wins.
    ///
    /// ```swift
    /// let request: JSONValue = ["page": 1, "path": "/shelf", "parameters": [:]]
    /// assert(request["parameters"] == .object([:]))
    /// ```
    public init(dictionaryLiteral elements: (String, JSONValue)...) {
        self = .object(Dictionary(elements, uniquingKeysWith: { _, last in last }))
    }
}

// MARK: - Codable and JSON text

extension JSONValue: Codable {
    /// Decodes any JSON value, so a `Codable` type can hold free-form JSON in a property.
    ///
    /// ```swift
    /// struct Reading: Decodable { let city: String; let extra: JSONValue }
    /// let reading = try JSONDecoder().decode(Reading.self, from: Data(#"{"city": "Paris", "extra": {"wind": 3}}"#.utf8))
    /// assert(reading.extra["wind"]?.intValue == 3)
    /// ```
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

    /// Encodes the value as JSON; an integral number is written without a fraction (`3`, not `3.0`).
    ///
    /// ```swift
    /// struct Reading: Encodable { let city: String; let extra: JSONValue }
    /// let data = try JSONEncoder().encode(Reading(city: "Paris", extra: ["wind": 3]))
    /// assert(String(decoding: data, as: UTF8.self).contains(#""extra":{"wind":3}"#))
    /// ```
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        switch self {
        case .null: try container.encodeNil()
        case .bool(let b): try container.encode(b)
        case .number(let n):
            if n.rounded() == n, abs(n) < JSONTextWriter.largestInteger { try container.encode(Int64(n)) } else { try container.encode(n) }
        case .string(let s): try container.encode(s)
        case .array(let a): try container.encode(a)
        case .object(let o): try container.encode(o)
        }
    }

    /// Parses JSON text (UTF-8, or UTF-16 or UTF-32 as `JSONDecoder` reads them). Throws
    /// `JSONValueError.malformed` naming `source`, and the line and column, on bad input.
    ///
    /// ```swift
    /// let data = Data(#"{"id": "weather", "abiVersion": 2}"#.utf8)   // as Data(contentsOf: url) reads a file
    /// let manifest = try JSONValue(jsonData: data, source: "plugin.json")
    /// assert(manifest["abiVersion"]?.intValue == 2)
    /// ```
    public init(jsonData data: Data, source: String = "JSON") throws {
        do throws(JSONTextReader.Failure) {
            self = try JSONTextReader.read(data)
        } catch {
            throw JSONValueError.malformed(source: source, reason: error.description)
        }
    }

    /// Parses JSON text given as a Swift string; throws as ``init(jsonData:source:)``.
    ///
    /// ```swift
    /// let value = try JSONValue(jsonString: #"{"count": 3}"#, source: "the reply")
    /// assert(value["count"]?.intValue == 3)
    /// ```
    public init(jsonString: String, source: String = "JSON") throws {
        try self.init(jsonData: Data(jsonString.utf8), source: source)
    }

    /// Compact UTF-8 JSON with sorted keys (stable output for logs and tests); NaN and the
    /// infinities, which JSON lacks, are written as `null`.
    ///
    /// ```swift
    /// let settings: JSONValue = ["limit": 10, "label": "Item", "ratio": .number(.nan)]
    /// let data = settings.jsonData()   // what `try data.write(to: url)` saves
    /// assert(String(decoding: data, as: UTF8.self) == #"{"label":"Item","limit":10,"ratio":null}"#)
    /// ```
    public func jsonData() -> Data {
        Data(JSONTextWriter.write(self))
    }

    /// Compact JSON text with sorted keys, as ``jsonData()``.
    ///
    /// ```swift
    /// let value: JSONValue = ["b": "x", "a": true, "n": 3]
    /// assert(value.jsonString == #"{"a":true,"b":"x","n":3}"#)
    /// ```
    public var jsonString: String { String(decoding: JSONTextWriter.write(self), as: UTF8.self) }
}

/// Errors raised when decoding JSON text:
///
/// ```swift
/// do { _ = try JSONValue(jsonString: "{", source: "plugin.json") }
/// catch let error as JSONValueError { assert("\(error)".hasPrefix("plugin.json: malformed JSON: ")) }   // … where, and why
/// ```
public enum JSONValueError: Error, CustomStringConvertible, Equatable {
    /// The text is not valid JSON; `source` names the file, payload or message it came from.
    case malformed(source: String, reason: String)

    /// The error as a person reads it: the source, then what is wrong and where.
    ///
    /// ```swift
    /// do { _ = try JSONValue(jsonString: #"{"id": }"#, source: "plugin.json") }
    /// catch let error as JSONValueError { assert(error.description.hasPrefix("plugin.json: malformed JSON: ")) }
    /// ```
    public var description: String {
        switch self {
        case .malformed(let source, let reason): return "\(source): malformed JSON: \(reason)"
        }
    }
}

extension JSONValue: CustomStringConvertible {
    /// The value's ``jsonString``, so that interpolating a value writes JSON.
    ///
    /// ```swift
    /// let data: JSONValue = ["count": 3]
    /// assert("data: \(data)" == #"data: {"count":3}"#)
    /// ```
    public var description: String { jsonString }
}
