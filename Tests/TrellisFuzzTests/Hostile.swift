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
}
