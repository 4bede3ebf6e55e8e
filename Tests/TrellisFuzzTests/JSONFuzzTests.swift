import Foundation
import PropertyBased
import Testing
import TrellisCore

/// JSON payloads (what crosses the plugin ABI, notification files, configuration): any bytes
/// parse or fail with an error naming the source; any value round-trips.
@Suite("Fuzz: JSON payloads")
struct JSONFuzzTests {
    @Test("mostly-JSON text parses or fails with a malformed error naming the source")
    func text() async {
        await propertyCheck(count: 3000, input: Hostile.jsonText) { text in
            await Hostile.yieldToOtherTests()
            do {
                let value = try JSONValue(jsonString: text, source: "payload")
                #expect((try? JSONValue(jsonString: value.jsonString)) == value, "what parses re-encodes to the same value")
            } catch let error as JSONValueError {
                #expect(error.description.hasPrefix("payload: malformed JSON"))
            } catch {
                Issue.record("unexpected error type \(type(of: error))")
            }
        }
    }

    @Test("raw bytes, valid UTF-8 or not, never crash the parser")
    func bytes() async {
        await propertyCheck(count: 3000, input: Hostile.bytes) { bytes in
            await Hostile.yieldToOtherTests()
            _ = try? JSONValue(jsonData: Data(bytes), source: "bytes")
        }
    }

    @Test("nested values survive encoding and decoding")
    func roundTrip() async throws {
        let leaves: [JSONValue] = [.null, true, false, 0, -1, 1.5, 1e300, "", "Фэнтези", "a\"b\\c\n\u{1}", "e\u{301}"]
        let values = Gen.element(of: leaves).array(of: 0...8).map { items -> JSONValue in
            let pairs: [(String, JSONValue)] = items.compactMap { $0 }.enumerated().map { index, leaf in
                ("k\(index)", JSONValue.array([leaf, .object(["x": leaf])]))
            }
            return .object(Dictionary(uniqueKeysWithValues: pairs))
        }
        await propertyCheck(count: 1000, input: values) { value in
            await Hostile.yieldToOtherTests()
            #expect((try? JSONValue(jsonString: value.jsonString)) == value)
        }
    }
}

/// The reader behind `JSONValue(jsonData:)` against `JSONDecoder` (through `JSONValue`'s
/// `Decodable` conformance) on the same hostile bytes: both read them or both refuse them, and
/// what they read is the same value.
@Suite("Fuzz: the JSON text reader agrees with JSONDecoder")
struct JSONReaderAgreementTests {
    static func agree(_ data: Data) {
        let reader = try? JSONValue(jsonData: data)
        let decoder = try? JSONDecoder().decode(JSONValue.self, from: data)
        #expect(reader == decoder, "\(Array(data)): reader \(reader.map(\.jsonString) ?? "refused"), JSONDecoder \(decoder.map(\.jsonString) ?? "refused")")
    }

    static let manifest = (try? Data(contentsOf: URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().appendingPathComponent("../../plugins/Location/plugin.json")))
        .map { String(decoding: $0, as: UTF8.self) } ?? "{}"

    @Test("mostly-JSON token soup")
    func tokens() async {
        await propertyCheck(count: 3000, input: Hostile.jsonText) { text in
            await Hostile.yieldToOtherTests()
            Self.agree(Data(text.utf8))
        }
    }

    @Test("a plugin manifest with bytes cut, repeated or inserted")
    func mutatedManifest() async {
        await propertyCheck(count: 3000, input: Hostile.mutatedBytes(of: Self.manifest)) { data in
            await Hostile.yieldToOtherTests()
            Self.agree(data)
        }
    }

    @Test("raw bytes")
    func bytes() async {
        await propertyCheck(count: 3000, input: Hostile.bytes) { bytes in
            await Hostile.yieldToOtherTests()
            Self.agree(Data(bytes))
        }
    }
}

/// The writer behind `JSONValue.jsonData()` against `JSONEncoder` (through `JSONValue`'s
/// `Encodable` conformance, with the same options) on generated values: the same bytes.
@Suite("Fuzz: the JSON text writer agrees with JSONEncoder")
struct JSONWriterAgreementTests {
    /// A value built from `words`, each word choosing the next piece: a kind of value, a
    /// number's bits, a string's characters, how many elements or members follow.
    static func value(from words: inout ArraySlice<UInt64>, depth: Int = 0) -> JSONValue {
        guard let word = words.popFirst() else { return .null }
        switch word % 8 {
        case 0: return .null
        case 1: return .bool(word & 8 != 0)
        case 2: return .number(Double(bitPattern: word))  // any Double: NaN, infinities, subnormals
        case 3: return .number(Double(Int64(truncatingIfNeeded: word) >> Int64(word % 61)))  // integers of every size
        case 4 where depth < 4:
            return .array((0..<Int(word >> 3 % 4)).map { _ in value(from: &words, depth: depth + 1) })
        case 5 where depth < 4:
            var members: [String: JSONValue] = [:]
            for _ in 0..<Int(word >> 3 % 4) {
                members[string(from: words.popFirst() ?? 0)] = value(from: &words, depth: depth + 1)
            }
            return .object(members)
        default: return .string(string(from: word))
        }
    }

    /// Up to four characters from `word`: ASCII (controls, quotes and backslashes among them),
    /// two- and three-byte UTF-8 (Latin, Cyrillic, line separators), and four-byte (emoji).
    static func string(from word: UInt64) -> String {
        var bits = word >> 3
        var scalars = String.UnicodeScalarView()
        for _ in 0..<Int(bits % 5) {
            bits >>= 3
            let piece = UInt32(truncatingIfNeeded: bits & 0xFFFF)
            bits >>= 12
            let value: UInt32 = switch piece % 4 {
            case 0: piece % 0x80
            case 1: 0x80 + piece % 0x780
            case 2: 0x800 + piece % 0xD000  // below the surrogates
            default: 0x10000 + (piece << 4) % 0x100000
            }
            scalars.append(Unicode.Scalar(value) ?? "?")
        }
        return String(scalars)
    }

    /// `value` with NaN and the infinities replaced by `null`, as `jsonData()` writes them
    /// (`JSONEncoder` refuses them).
    static func finite(_ value: JSONValue) -> JSONValue {
        switch value {
        case .number(let n) where !n.isFinite: .null
        case .array(let elements): .array(elements.map(finite))
        case .object(let members): .object(members.mapValues(finite))
        default: value
        }
    }

    @Test("generated values: numbers of every kind, strings of every width, nested")
    func generated() async throws {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        await propertyCheck(count: 3000, input: Gen<UInt64>.value().array(of: 1...40)) { words in
            await Hostile.yieldToOtherTests()
            var pieces = words[...]
            let value = Self.value(from: &pieces)
            let expected = try? encoder.encode(Self.finite(value))
            #expect(value.jsonData() == expected, "\(value): writer \(value.jsonString), JSONEncoder \(expected.map { String(decoding: $0, as: UTF8.self) } ?? "refused")")
        }
    }

    @Test("numbers at the edges: integers written whole, a Double as Swift prints it")
    func edgeNumbers() throws {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        let numbers: [Double] = [0, -0.0, 1, -3, 0.1, 1e-7, 1e21, 8_999_999_999_999_999, 9e15, -9e15, 9_007_199_254_740_991,
                                 9_007_199_254_740_992, 1e16, 123_456_789_012.5, .leastNonzeroMagnitude, .leastNormalMagnitude,
                                 .greatestFiniteMagnitude, -.greatestFiniteMagnitude]
        for number in numbers {
            let value = JSONValue.array([.number(number)])
            #expect(value.jsonData() == (try encoder.encode(value)), "\(number): \(value.jsonString)")
        }
        #expect(JSONValue.array([.number(.nan), .number(.infinity), .number(-.infinity)]).jsonString == "[null,null,null]")
    }

    /// Found by `generated()` in CI: names that `String`'s `<` orders by their canonical forms
    /// ("L" and U+0341 compose to "Ĺ", U+0139, after U+0081), `JSONEncoder` by their bytes.
    @Test("member names in the order of their UTF-8 bytes, as JSONEncoder writes them")
    func memberOrder() throws {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        let value = JSONValue.object(["": .null, "\u{81}\u{0}\u{0}": .null, "L\u{341}": .null, "e\u{301}": 1, "é!": 2, "Z": 3, "a": 4])
        #expect(value.jsonData() == (try encoder.encode(value)), "\(value.jsonString)")
    }

    @Test("what the reader reads from token soup is written as JSONEncoder writes it")
    func readBack() async throws {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        await propertyCheck(count: 3000, input: Hostile.jsonText) { text in
            await Hostile.yieldToOtherTests()
            guard let value = try? JSONValue(jsonString: text) else { return }
            #expect(value.jsonData() == (try? encoder.encode(value)), "\(text)")
        }
    }
}
