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
