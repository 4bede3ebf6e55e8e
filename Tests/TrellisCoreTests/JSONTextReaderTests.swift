import Foundation
import Testing
import TrellisCore

/// `JSONValue(jsonData:)` reads JSON text with a reader of its own: it accepts what
/// `JSONDecoder` accepts, gives the same values, and says where the text goes wrong.
@Suite("JSON text reader")
struct JSONTextReaderTests {
    /// What `JSONDecoder`, through `JSONValue`'s `Decodable` conformance, makes of `data`.
    static func decoded(_ data: Data) -> JSONValue? {
        try? JSONDecoder().decode(JSONValue.self, from: data)
    }

    static func read(_ text: String) throws -> JSONValue {
        try JSONValue(jsonData: Data(text.utf8), source: "t.json")
    }

    @Test("JSON as files and servers write it reads as JSONDecoder reads it", arguments: [
        #"{"id": 7, "title": "Фэнтези", "tags": ["a", "b"], "nested": {"ok": true, "none": null}}"#,
        "  [1, -0, 0.5, -12.25e-3, 1E+2, 12345678901234567890]\n",
        #""\"\\\/\b\f\n\r\t\u00e9\u0000\ud83d\ude00""#,
        "[1, 2, ]", #"{"a": 1, }"#, #"{"a": 1, "a": 2}"#, "\u{FEFF}{\"bom\": true}", "true", "null", "\"é😀\"",
    ])
    func acceptsWhatJSONDecoderAccepts(_ text: String) throws {
        let value = try Self.read(text)
        #expect(value == Self.decoded(Data(text.utf8)))
    }

    @Test("UTF-16 and UTF-32 text, with or without a byte-order mark, reads as its UTF-8")
    func otherEncodings() throws {
        let text = #"{"title": "Фэнтези", "n": [1, 2.5]}"#
        let expected = try Self.read(text)
        for encoding: String.Encoding in [.utf16, .utf16BigEndian, .utf16LittleEndian, .utf32, .utf32BigEndian, .utf32LittleEndian] {
            let data = try #require(text.data(using: encoding))
            #expect(try JSONValue(jsonData: data) == expected, "\(encoding)")
            // JSONDecoder refuses UTF-32 that starts with a byte-order mark (`.utf32` writes one).
            if encoding != .utf32 { #expect(Self.decoded(data) == expected, "JSONDecoder agrees for \(encoding)") }
        }
    }

    @Test("a zero byte makes the text UTF-16 or UTF-32 only where JSONDecoder's pattern of zeros says so")
    func encodingPatterns() throws {
        // Found by the fuzz test: `"\0""aps"…` read as UTF-16 would be one string.
        let soup = Data([34, 0, 34, 34, 97, 112, 115, 34, 91, 48, 46, 49, 0, 58, 123, 123, 44, 125, 34, 0])
        #expect(Self.decoded(soup) == nil)
        #expect(throws: JSONValueError.self) { try JSONValue(jsonData: soup) }
        for bytes: [UInt8] in [[0x31, 0], [0, 0x31], [0x5B, 0, 0x5D, 0], [0, 0x5B, 0, 0x5D]] {
            #expect(try JSONValue(jsonData: Data(bytes)) == Self.decoded(Data(bytes)), "\(bytes)")
        }
    }

    @Test("the first of two members with the same name is kept, as JSONDecoder keeps it")
    func firstOfEqualNames() throws {
        #expect(try Self.read(#"{"a": 1, "b": 2, "a": 3}"#) == ["a": 1, "b": 2])
    }

    @Test("the value of a repeated name is checked for its structure only, as JSONDecoder checks it")
    func repeatedNameValue() throws {
        // Found by the fuzz test: JSONDecoder never decodes such a value, so a flaw inside it
        // (bytes that are not UTF-8, a control character, a number out of range, an unknown
        // escape, a short \u escape) does not stop the file from loading.
        var text = Data(#"{"title": "Update", "title": "U"#.utf8)
        text.append(contentsOf: [0xC3, 0x70, 0x09])
        text.append(contentsOf: Array(#"date\x", "n": 1, "n": 1e999, "n": [--1, {"a": "\u12xy"}]}"#.utf8))
        #expect(Self.decoded(text) == ["title": "Update", "n": 1])
        #expect(try JSONValue(jsonData: text) == ["title": "Update", "n": 1])
        // Its structure is checked: an unclosed array there is refused by both.
        let broken = Data(#"{"a": 1, "a": [1, 2}"#.utf8)
        #expect(Self.decoded(broken) == nil)
        #expect(throws: JSONValueError.self) { try JSONValue(jsonData: broken) }
    }

    @Test("an error names the source, the line and the column, and what was found there", arguments: [
        ("{\n  \"a\": 1\n  \"b\": 2\n}", "line 3, column 3: '\"' where ',' or '}' should be"),
        ("[1, 2", "line 1, column 6: the end of the text where ',' or ']' should be"),
        ("", "line 1, column 1: no JSON value: the text is empty"),
        ("01", "line 1, column 1: a number with a leading zero"),
        ("[1.]", "line 1, column 4: a number with no digit after its '.'"),
        ("[+1]", "line 1, column 2: '+' where a value should be"),
        ("NaN", "line 1, column 1: 'N' where a value should be"),
        ("{\"a\" 1}", "line 1, column 6: '1' where ':' should follow the member's name"),
        ("{1: 2}", "line 1, column 2: '1' where a member's name in double quotes should be"),
        ("[\"tab\there\"]", "line 1, column 6: a control character (U+0009) inside a string"),
        (#"["\ud800"]"#, #"line 1, column 3: a lone UTF-16 surrogate \uD800, not followed by its pair"#),
        (#"["\udc00"]"#, #"line 1, column 3: a lone UTF-16 surrogate \uDC00"#),
        (#"["\x"]"#, #"line 1, column 3: an unknown escape \x"#),
        (#"["\u12"]"#, #"line 1, column 3: a \u escape without four hex digits"#),
        ("[\"open", "line 1, column 2: a string that is never closed"),
        ("[1e400]", "line 1, column 2: the number 1e400 is beyond what a Double holds"),
        ("[-1e-400]", "line 1, column 2: the number -1e-400 is beyond what a Double holds"),
        ("{} {}", "line 1, column 4: '{' after the JSON value"),
        ("[tru]", "line 1, column 2: 't' where a value should be"),
        ("[1,,2]", "line 1, column 4: ',' where a value should be"),
    ])
    func errorsSayWhere(_ text: String, _ expected: String) {
        #expect(Self.decoded(Data(text.utf8)) == nil, "JSONDecoder refuses it too")
        do {
            let value = try Self.read(text)
            Issue.record("read as \(value)")
        } catch {
            #expect(String(describing: error).hasPrefix("t.json: malformed JSON: \(expected)"), "\(error)")
        }
    }

    @Test("text that is not UTF-8 is refused where it stops being UTF-8")
    func notUTF8() {
        let data = Data([0x5B, 0x22, 0x61, 0xFF, 0x22, 0x5D])  // ["a\xFF"]
        #expect(Self.decoded(data) == nil)
        #expect(throws: JSONValueError.malformed(source: "t.json", reason: "line 1, column 3: text that is not valid UTF-8")) {
            try JSONValue(jsonData: data, source: "t.json")
        }
    }

    @Test("512 arrays inside each other read; 513 are refused, without exhausting the stack")
    func depth() throws {
        let deep = String(repeating: "[", count: 512) + String(repeating: "]", count: 512)
        #expect(try Self.read(deep) != .null)
        let deeper = "[" + deep + "]"
        #expect(throws: JSONValueError.self) { try Self.read(deeper) }
        let hostile = String(repeating: "[", count: 1_000_000)
        #expect(throws: JSONValueError.self) { try Self.read(hostile) }
    }
}
