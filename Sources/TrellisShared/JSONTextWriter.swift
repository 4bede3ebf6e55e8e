// FoundationEssentials, not Foundation, where the toolchain has it: a plugin process loads this
// module, and Foundation's internationalisation would add 6 MiB to each (issue #37's plugin-rss).
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// Writes a ``JSONValue`` as compact UTF-8 JSON text: what ``JSONValue/jsonData()`` returns,
/// the reverse of ``JSONTextReader``.
///
/// The text is byte for byte what `JSONEncoder` with `[.sortedKeys, .withoutEscapingSlashes]`
/// writes for the value (`JSONWriterAgreementTests` compares the two on generated values): members
/// sorted by the UTF-8 bytes of their names, `"`, `\`, and the control characters escaped
/// (`\n`, `\u0001`), everything else as it is, in UTF-8; an integral number below 9 × 10¹⁵
/// without a fraction (`3`), any other as Swift prints a `Double` (`0.1`, `1e-07`); NaN and
/// the infinities, which JSON lacks, as `null`.
///
/// `JSONEncoder` reaches the value through `Encodable`, whose first use in a process looks up
/// type metadata and protocol conformances: writing the store's model at its creation took
/// 2.8 M instructions of the start-up thread's 22 M that way, and this writer a tenth of that
/// (callgrind, `trellis / --exit-after-first-frame`).
struct JSONTextWriter {
    /// Numbers at or above this size are written as a `Double` is printed, as
    /// `JSONValue.encode(to:)` hands them to an encoder.
    static let largestInteger = 9.0e15

    private var bytes: [UInt8] = []

    /// `value` as JSON text.
    static func write(_ value: JSONValue) -> [UInt8] {
        var writer = JSONTextWriter()
        writer.write(value)
        return writer.bytes
    }

    private mutating func write(_ value: JSONValue) {
        switch value {
        case .null: append("null")
        case .bool(let b): append(b ? "true" : "false")
        case .number(let n): writeNumber(n)
        case .string(let s): writeString(s)
        case .array(let elements):
            bytes.append(UInt8(ascii: "["))
            for (index, element) in elements.enumerated() {
                if index > 0 { bytes.append(UInt8(ascii: ",")) }
                write(element)
            }
            bytes.append(UInt8(ascii: "]"))
        case .object(let members):
            bytes.append(UInt8(ascii: "{"))
            // By their UTF-8 bytes, as `JSONEncoder` sorts them, not by `String`'s `<`, which
            // compares canonical forms: "L\u{341}" (Ĺ) comes before "\u{81}" in one, after it
            // in the other.
            for (index, name) in members.keys.sorted(by: { $0.utf8.lexicographicallyPrecedes($1.utf8) }).enumerated() {
                if index > 0 { bytes.append(UInt8(ascii: ",")) }
                writeString(name)
                bytes.append(UInt8(ascii: ":"))
                write(members[name]!)  // a key of `members`, just listed
            }
            bytes.append(UInt8(ascii: "}"))
        }
    }

    private mutating func writeNumber(_ n: Double) {
        guard n.isFinite else { return append("null") }
        if n.rounded() == n, abs(n) < Self.largestInteger {
            append(String(Int64(n)))
        } else {
            // As `JSONEncoder` prints a Double: its description, without a trailing ".0".
            var text = n.description
            if text.hasSuffix(".0") { text.removeLast(2) }
            append(text)
        }
    }

    private mutating func writeString(_ string: String) {
        bytes.append(UInt8(ascii: "\""))
        for byte in string.utf8 {
            switch byte {
            case UInt8(ascii: "\""): append("\\\"")
            case UInt8(ascii: "\\"): append("\\\\")
            case 0x0A: append("\\n")
            case 0x0D: append("\\r")
            case 0x09: append("\\t")
            case 0x08: append("\\b")
            case 0x0C: append("\\f")
            case 0x00..<0x20:
                append("\\u00")
                bytes.append(Self.hexDigit(byte >> 4))
                bytes.append(Self.hexDigit(byte & 0x0F))
            default: bytes.append(byte)
            }
        }
        bytes.append(UInt8(ascii: "\""))
    }

    private static func hexDigit(_ value: UInt8) -> UInt8 {
        value < 10 ? UInt8(ascii: "0") + value : UInt8(ascii: "a") + value - 10
    }

    private mutating func append(_ text: String) {
        bytes.append(contentsOf: text.utf8)
    }
}
