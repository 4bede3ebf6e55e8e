import Foundation
import Testing
import TrellisPluginABI
import TrellisShared

/// trellis_json.h, the header-only JSON reader and writer of the plugin ABI (the plugin host
/// reads and writes its messages with it; C plugins may too), called here as a C plugin does.
@Suite("trellis_json.h")
struct TrellisJSONHeaderTests {
    /// What `trellis_json_parse` says of `text`: the value's text, or the reason and offset.
    static func parse(_ text: String) -> (value: String?, reason: String?, offset: Int) {
        var bytes = Array(text.utf8)
        return bytes.withUnsafeMutableBufferPointer { buffer in
            buffer.withMemoryRebound(to: CChar.self) { chars in
                var value = trellis_json()
                var error = trellis_json_error()
                guard trellis_json_parse(chars.baseAddress, chars.count, &value, &error) != 0 else {
                    return (nil, error.reason.map { String(cString: $0) }, Int(error.offset))
                }
                let span = UnsafeRawBufferPointer(start: value.start, count: value.end! - value.start!)
                return (String(decoding: span, as: UTF8.self), nil, 0)
            }
        }
    }

    /// Runs `body` on the checked value of `text` (which must be JSON).
    static func with<Result>(_ text: String, _ body: (trellis_json) -> Result) -> Result {
        text.withCString { pointer in
            var value = trellis_json()
            precondition(trellis_json_parse(pointer, strlen(pointer), &value, nil) != 0, text)
            return body(value)
        }
    }

    static func string(_ value: trellis_json) -> String? {
        let length = trellis_json_string(value, nil, 0)
        guard length >= 0 else { return nil }
        var buffer = [CChar](repeating: 0, count: length + 1)
        _ = trellis_json_string(value, &buffer, buffer.count)
        return String(decoding: buffer.prefix(length).map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    @Test("valid RFC 8259 text is accepted, white space around it trimmed",
          arguments: [#"{}"#, #"  [1, -0.5e3, "x", true, false, null, {"a": []}]  "#, #""\u00e9\ud83d\ude00\n""#, "0", "-0", #""Фэнтези""#])
    func accepts(text: String) {
        #expect(Self.parse(text).value == text.trimmingCharacters(in: .whitespaces))
    }

    @Test("malformed text is refused, saying why and where", arguments: [
        ("[1,]", "an unexpected character", 3), ("{\"a\" 1}", "a member name without ':'", 5), ("01", "a number with a leading zero", 0),
        ("\"\\ud800\"", "a high surrogate without its low half", 1), ("\"\\udc00\"", "a lone low surrogate", 1),
        ("\"a\u{1}\"", "a control character in a string (escape it)", 2), ("1e400", "a number beyond what a double holds", 0),
        ("[1] 2", "text after the value", 4), ("tru", "an unknown word (true, false and null are the only ones)", 0),
        ("\"\\x\"", "an unknown escape", 1), ("", "a value is missing", 0), ("\"abc", "a string without its closing quote", 0),
    ])
    func refuses(text: String, reason: String, offset: Int) {
        let result = Self.parse(text)
        #expect(result.value == nil)
        #expect(result.reason == reason)
        #expect(result.offset == offset)
    }

    @Test("bytes that are not UTF-8, and nesting past 512, are refused")
    func refusesBytesAndDepth() {
        var bytes: [CChar] = [0x22, CChar(bitPattern: 0xC3), 0x22]
        var error = trellis_json_error()
        #expect(trellis_json_parse(&bytes, 3, nil, &error) == 0)
        #expect(String(cString: error.reason) == "text that is not UTF-8")
        #expect(Self.parse(String(repeating: "[", count: 512) + String(repeating: "]", count: 512)).value != nil)
        #expect(Self.parse(String(repeating: "[", count: 513) + String(repeating: "]", count: 513)).reason
                == "more than 512 arrays and objects inside each other")
    }

    @Test("members, elements, strings and numbers are read from the checked text")
    func reads() {
        Self.with(#"{"city": "Gen\u00e8ve", "n": 42, "x": 1.5, "ok": true, "list": [1, "two", {"k": null}], "city": "later"}"#) { object in
            var member = trellis_json()
            #expect(trellis_json_get(object, "city", &member) != 0)
            #expect(Self.string(member) == "Genève", "the first of two members of one name")
            #expect(trellis_json_string_equals(member, "Genève") != 0)
            #expect(trellis_json_string_equals(member, "Gen") == 0)
            #expect(trellis_json_get(object, "n", &member) != 0)
            var integer: Int64 = 0
            #expect(trellis_json_int(member, &integer) != 0 && integer == 42)
            #expect(trellis_json_get(object, "x", &member) != 0 && trellis_json_int(member, &integer) == 0)
            var number = 0.0
            #expect(trellis_json_number(member, &number) != 0 && number == 1.5)
            #expect(trellis_json_get(object, "ok", &member) != 0 && trellis_json_is_true(member) != 0)
            #expect(trellis_json_get(object, "missing", &member) == 0)
            #expect(trellis_json_get(object, "list", &member) != 0)
            var iterator = trellis_json_iterate(member)
            var element = trellis_json()
            var types: [trellis_json_type] = []
            while trellis_json_next(&iterator, nil, &element) != 0 { types.append(trellis_json_type_of(element)) }
            #expect(types == [TRELLIS_JSON_NUMBER, TRELLIS_JSON_STRING, TRELLIS_JSON_OBJECT])
            var keys: [String] = []
            var key = trellis_json()
            iterator = trellis_json_iterate(object)
            while trellis_json_next(&iterator, &key, &element) != 0 { keys.append(Self.string(key) ?? "?") }
            #expect(keys == ["city", "n", "x", "ok", "list", "city"])
        }
    }

    @Test("a string that does not fit the buffer says its length, as snprintf does")
    func stringBuffer() {
        Self.with(#""\u0041bc\t""#) { value in
            var small = [CChar](repeating: 65, count: 3)
            #expect(trellis_json_string(value, &small, 3) == 4)
            #expect(small[0] == 0, "nothing usable when it does not fit")
            #expect(Self.string(value) == "Abc\t")
        }
    }

    /// The text a writer made of `build`'s calls, or nil.
    static func written(_ build: (UnsafeMutablePointer<trellis_json_writer>) -> Void) -> String? {
        let writer = UnsafeMutablePointer<trellis_json_writer>.allocate(capacity: 1)
        defer { trellis_json_writer_free(writer); writer.deallocate() }
        trellis_json_writer_init(writer)
        build(writer)
        return trellis_json_writer_text(writer).map { String(cString: $0) }
    }

    @Test("the writer escapes, replaces bytes that are not UTF-8, and writes what JSONValue reads")
    func writes() throws {
        let text = try #require(Self.written { out in
            trellis_json_begin_object(out)
            trellis_json_key(out, "quote\"back\\slash")
            trellis_json_string_value(out, "line\nbreak\u{1}é")
            trellis_json_key(out, "bad")
            trellis_json_string_n(out, [CChar(bitPattern: 0xFF), 0x41], 2)
            trellis_json_key(out, "numbers")
            trellis_json_begin_array(out)
            trellis_json_int_value(out, -7)
            trellis_json_double(out, 0.1)
            trellis_json_double(out, .infinity)
            trellis_json_bool(out, 1)
            trellis_json_null(out)
            trellis_json_end_array(out)
            trellis_json_end_object(out)
        })
        #expect(text == #"{"quote\"back\\slash":"line\nbreak\u0001é","bad":"\ufffdA","numbers":[-7,0.1,null,true,null]}"#)
        let value = try JSONValue(jsonString: text)
        #expect(value["quote\"back\\slash"] == "line\nbreak\u{1}é")
        #expect(Self.parse(text).value == text)
    }

    @Test("the writer gives no text for calls that make no single value")
    func incomplete() {
        #expect(Self.written { trellis_json_begin_object($0) } == nil)
        #expect(Self.written { out in trellis_json_begin_object(out); trellis_json_key(out, "k"); trellis_json_end_object(out) } == nil)
        #expect(Self.written { out in trellis_json_begin_object(out); trellis_json_int_value(out, 1); trellis_json_end_object(out) } == nil)
        #expect(Self.written { out in trellis_json_null(out); trellis_json_null(out) } == nil)
        #expect(Self.written { _ in } == nil)
        #expect(Self.written { out in trellis_json_begin_array(out); trellis_json_end_object(out) } == nil)
    }

    @Test("the shortcuts for one member: an integer or a fallback, a string copied only when it is one and fits, a member written")
    func memberShortcuts() throws {
        Self.with(#"{"page": 7, "half": 1.5, "label": "Bücher", "long": "0123456789", "n": null}"#) { object in
            #expect(trellis_json_get_int(object, "page", -1) == 7)
            #expect(trellis_json_get_int(object, "half", -1) == -1, "not a whole number: the fallback")
            #expect(trellis_json_get_int(object, "missing", 10) == 10)
            var label = [CChar](repeating: 0, count: 16)
            "Item".utf8CString.enumerated().forEach { label[$0.offset] = $0.element }
            #expect(trellis_json_get_string(object, "label", &label, 16) != 0)
            #expect(String(decoding: label.prefix { $0 != 0 }.map(UInt8.init(bitPattern:)), as: UTF8.self) == "Bücher")
            #expect(trellis_json_get_string(object, "long", &label, 8) == 0, "too long for 8 bytes: left as it was")
            #expect(trellis_json_get_string(object, "n", &label, 16) == 0 && trellis_json_get_string(object, "page", &label, 16) == 0)
            #expect(String(decoding: label.prefix { $0 != 0 }.map(UInt8.init(bitPattern:)), as: UTF8.self) == "Bücher")
        }
        #expect(Self.written { out in
            trellis_json_begin_object(out)
            trellis_json_member_int(out, "page", 3)
            trellis_json_member_string(out, "text", "a \"b\"")
            trellis_json_member_string(out, "none", nil)
            trellis_json_end_object(out)
        } == #"{"page":3,"text":"a \"b\"","none":null}"#)
    }
}
