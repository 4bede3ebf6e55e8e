import Foundation
import PropertyBased
import Testing
import TrellisCore
import TrellisPluginABI

/// trellis_json.h's reader against hostile text, beside the host's Swift reader: it never
/// crashes or reads out of bounds, and whatever it accepts the shell's reader accepts with the
/// same value (it is the stricter of the two: no trailing commas, no byte-order mark, UTF-8
/// only), so the plugin host never passes the shell JSON the shell cannot read.
@Suite("Fuzz: trellis_json.h")
struct TrellisJSONFuzzTests {
    /// The C reader's verdict on `bytes`: the value re-written by the C writer, or nil.
    static func readAndRewrite(_ bytes: [UInt8]) -> String? {
        // An exact-size copy: a read past the end shows under AddressSanitizer.
        let copy = UnsafeMutablePointer<CChar>.allocate(capacity: max(bytes.count, 1))
        defer { copy.deallocate() }
        bytes.withUnsafeBufferPointer { source in
            if let base = source.baseAddress { UnsafeMutableRawPointer(copy).copyMemory(from: base, byteCount: bytes.count) }
        }
        var value = trellis_json()
        guard trellis_json_parse(copy, bytes.count, &value, nil) != 0 else { return nil }
        let writer = UnsafeMutablePointer<trellis_json_writer>.allocate(capacity: 1)
        defer { trellis_json_writer_free(writer); writer.deallocate() }
        trellis_json_writer_init(writer)
        rewrite(value, writer)
        return trellis_json_writer_text(writer).map { String(cString: $0) }
    }

    /// Writes `value` again, member by member, through the reading functions.
    static func rewrite(_ value: trellis_json, _ out: UnsafeMutablePointer<trellis_json_writer>) {
        switch trellis_json_type_of(value) {
        case TRELLIS_JSON_OBJECT, TRELLIS_JSON_ARRAY:
            let object = trellis_json_type_of(value) == TRELLIS_JSON_OBJECT
            object ? trellis_json_begin_object(out) : trellis_json_begin_array(out)
            var iterator = trellis_json_iterate(value)
            var key = trellis_json(), element = trellis_json()
            while trellis_json_next(&iterator, &key, &element) != 0 {
                if object {
                    let length = trellis_json_string(key, nil, 0)
                    var name = [CChar](repeating: 0, count: length + 1)
                    _ = trellis_json_string(key, &name, name.count)
                    trellis_json_key_n(out, name, length)
                }
                rewrite(element, out)
            }
            object ? trellis_json_end_object(out) : trellis_json_end_array(out)
        case TRELLIS_JSON_STRING:
            let length = trellis_json_string(value, nil, 0)
            var buffer = [CChar](repeating: 0, count: length + 1)
            _ = trellis_json_string(value, &buffer, buffer.count)
            trellis_json_string_n(out, buffer, length)
        case TRELLIS_JSON_NUMBER:
            var number = 0.0
            _ = trellis_json_number(value, &number)
            trellis_json_double(out, number)
        default:
            trellis_json_value(out, value)
        }
    }

    static func check(_ bytes: [UInt8]) {
        guard let rewritten = readAndRewrite(bytes) else { return }
        let original = try? JSONValue(jsonData: Data(bytes))
        #expect(original != nil, "the C reader accepted what the shell refuses: \(String(decoding: bytes, as: UTF8.self).debugDescription)")
        #expect(original == (try? JSONValue(jsonString: rewritten)), "\(String(decoding: bytes, as: UTF8.self).debugDescription)")
    }

    @Test("mostly-JSON text: accepted only when the shell's reader accepts it, with the same value")
    func text() async {
        await propertyCheck(count: 3000, input: Hostile.jsonText) { text in
            await Hostile.yieldToOtherTests()
            Self.check(Array(text.utf8))
        }
    }

    @Test("raw bytes, valid UTF-8 or not, never crash the reader")
    func bytes() async {
        await propertyCheck(count: 3000, input: Hostile.bytes) { bytes in
            await Hostile.yieldToOtherTests()
            Self.check(bytes)
        }
    }

    @Test("a valid manifest, mutated byte by byte: the same verdicts")
    func mutated() async throws {
        let manifest = try String(contentsOf: URL(fileURLWithPath: #filePath).deletingLastPathComponent()
            .deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("plugins/Location/plugin.json"), encoding: .utf8)
        #expect(Self.readAndRewrite(Array(manifest.utf8)) != nil)
        await propertyCheck(count: 3000, input: Hostile.mutatedBytes(of: manifest)) { data in
            await Hostile.yieldToOtherTests()
            Self.check(Array(data))
        }
    }
}
