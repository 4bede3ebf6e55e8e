import Foundation
import PropertyBased

/// Generators of hostile input: strings assembled from the pieces that break parsers
/// (separators, escapes, NUL, dot segments, broken UTF-8 escapes, combining marks, Cyrillic).
enum Hostile {
    static let pathPieces = [
        "/", "/", "/", ":", "*", "%", "%2F", "%00", "%zz", "%E2%82", "%D1%84", "..", ".", "a", "notes", "б",
        "ё", "?", "=", "&", "+", "#", "\u{0}", "\u{7f}", "é", "e\u{301}", "\u{202e}", " ", "\n", "~", "\\",
    ]

    /// Paths and patterns made of 0–40 hostile pieces.
    static let path = Gen.element(of: pathPieces).array(of: 0...40).map { $0.compactMap { $0 }.joined() }

    static let jsonPieces = [
        "{", "}", "[", "]", ",", ":", "\"", "\\", "\\u", "\\ud800", "null", "true", "1e999", "-0", "0.1",
        "\"aps\"", "\"alert\"", "\"badge\"", "\u{0}", " ", "\"é\"", "\"\\n\"", "9999999999999999999999",
    ]

    /// Mostly-JSON text: 0–60 JSON tokens in random order.
    static let jsonText = Gen.element(of: jsonPieces).array(of: 0...60).map { $0.compactMap { $0 }.joined() }

    /// Raw bytes, often not UTF-8.
    static let bytes = Gen<UInt8>.value(in: 0...255).array(of: 0...200)

    /// Names that break naive handling of identifiers, SQL and file names: dot segments,
    /// absolute and relative library paths, NUL and control characters, quotes, SQL keywords
    /// and injections, names SQLite reserves, names differing only in case, bidi overrides.
    static let names = [
        "", " ", ".", "..", "../../lib.so", "/abs.so", "lib\u{0}.so", "lib.so\n", "a/b", "\\", "Note; DROP TABLE x",
        "x'); DROP TABLE Note; --", "\"", "'", "`", "Note\"", "[Note]", "select", "SELECT", "table", "order", "group",
        "sqlite_master", "sqlite_x", "trellis_metadata", "trellis_x", "id", "ID", "Id", "rowid", "_rowid_", "1abc", "_x",
        "é", "Ñote", "\u{202e}", "\u{feff}x", "%00", "%2e%2e", "\u{7f}", "😀", String(repeating: "a", count: 300),
    ]

    /// Byte sequences inserted by ``mutatedBytes(of:)``: NUL, bytes that are never UTF-8, a
    /// lone surrogate, JSON punctuation, an escaped NUL, a duplicate key, an overflowing number.
    static let textInsertions: [[UInt8]] = [
        [0], [0xFF], [0xC3], [0xED, 0xA0, 0x80], Array("\"".utf8), Array("{".utf8), Array("}".utf8), Array("[".utf8),
        Array(",".utf8), Array(":".utf8), Array("\\u0000".utf8), Array("\"id\": \"x\",".utf8), Array("1e999".utf8),
    ]

    /// `text` with 1–3 byte-level edits: truncated, a hostile byte sequence inserted, a run of
    /// bytes removed, or a run repeated. Often not JSON, sometimes not UTF-8.
    static func mutatedBytes(of text: String) -> Generator<Data, Shrink.None<Data>> {
        let original = Array(text.utf8)
        return Generator { rng in
            var bytes = original
            for _ in 0..<Int.random(in: 1...3, using: &rng) {
                let at = Int.random(in: 0...bytes.count, using: &rng)
                let end = min(bytes.count, at + Int.random(in: 1...40, using: &rng))
                switch Int.random(in: 0..<4, using: &rng) {
                case 0: bytes.removeSubrange(at...)
                case 1: bytes.insert(contentsOf: textInsertions.randomElement(using: &rng) ?? [], at: at)
                case 2: bytes.removeSubrange(at..<end)
                default: bytes.insert(contentsOf: bytes[at..<end], at: at)
                }
            }
            return Data(bytes)
        }
    }

    /// Called at the start of every case: a property runs thousands of cases without
    /// suspending, and would otherwise hold one of the cooperative pool's threads (two on a
    /// two-core machine) for seconds while the tasks of tests running alongside wait.
    static func yieldToOtherTests() async {
        await Task.yield()
    }
}
