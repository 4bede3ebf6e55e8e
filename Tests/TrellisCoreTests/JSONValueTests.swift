import Foundation
import Testing
@testable import TrellisCore

@Suite("JSONValue")
struct JSONValueTests {
    @Test("round-trips nested values through JSON text, Unicode included")
    func roundTrip() throws {
        let value: JSONValue = ["title": "Фэнтези", "n": 3, "pi": 3.5, "ok": true, "none": nil, "list": [1, "два"]]
        let text = value.jsonString
        #expect(try JSONValue(jsonString: text) == value)
        #expect(text.contains("\"n\":3"))
    }

    @Test("malformed text is an error naming the source")
    func malformedNamesSource() {
        #expect(throws: JSONValueError.self) { try JSONValue(jsonString: "{\"a\": ", source: "payload.json") }
        do {
            _ = try JSONValue(jsonString: "[1,", source: "payload.json")
            Issue.record("expected an error")
        } catch {
            #expect(String(describing: error).hasPrefix("payload.json: malformed JSON"))
        }
    }

    @Test("non-finite numbers encode as null")
    func nonFinite() {
        #expect(JSONValue.array([.number(.nan), .number(.infinity)]).jsonString == "[null,null]")
    }

    @Test("accessors return nil for the wrong case")
    func accessors() {
        let v: JSONValue = ["a": [10, 20]]
        #expect(v["a"]?[1]?.intValue == 20)
        #expect(v["a"]?[5] == nil)
        #expect(v["missing"] == nil)
        #expect(JSONValue.number(1.5).intValue == nil)
        #expect(JSONValue.string("x").objectValue == nil)
    }
}
