import Foundation

/// The folding rules of search as you type, and a parsed query.
///
/// Text is folded case- and diacritic-insensitively with no locale, after mapping `ё`/`Ё`
/// to `е` explicitly: "ФЭНТЕЗИ", "Фэнтези" and "фэнтези" fold alike, "Ёж" and "еж" too.
/// Diacritic folding also turns `й` into `и` (and `é` into `e`): a search for "и" finds "й",
/// which suits searching, not display. ASCII text takes a fast path (lowercasing only).
///
/// A query is split on whitespace into terms; a text matches when every term occurs in it,
/// so "фэнтези боевое" finds "Боевое фэнтези".
struct SearchQuery: Equatable, Sendable {
    /// The folded terms as UTF-8.
    let terms: [[UInt8]]

    /// The query typed as `text`.
    init(_ text: String) {
        terms = Self.fold(text).split(whereSeparator: \.isWhitespace).map { Array($0.utf8) }
    }

    private init(terms: [[UInt8]]) {
        self.terms = terms
    }

    /// The terms of this query a text matching `previous` may still lack: those inside none of
    /// `previous`'s terms (a term inside one of them occurs wherever that one does). Typing
    /// "row 1" after "row " leaves "1" to compare.
    func terms(beyond previous: SearchQuery) -> SearchQuery {
        SearchQuery(terms: terms.filter { term in
            !previous.terms.contains { old in old.withUnsafeBufferPointer { Self.occurs(term, in: $0) } }
        })
    }

    /// Whether the query has no terms (it matches everything and filters nothing).
    var isEmpty: Bool { terms.isEmpty }

    /// Whether every term occurs in `foldedText` (a text already folded by ``fold(_:)``).
    func matches(_ foldedText: String) -> Bool {
        // A native string's UTF-8 is contiguous: read in place (no mutable copy for
        // `withUTF8`, which cost a third of the time on a million rows); a bridged one is copied.
        // Safe: the buffer is only read, by index within its count, and only inside the closure
        // that lends it, while the string or the array it points into is alive.
        foldedText.utf8.withContiguousStorageIfAvailable(matches(bytes:))
            ?? Array(foldedText.utf8).withUnsafeBufferPointer(matches(bytes:))
    }

    /// Whether every term occurs in `bytes`, folded UTF-8.
    private func matches(bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        // By index: `for term in terms` copied (retained and released) each term per row.
        for index in terms.indices where !Self.occurs(terms[index], in: bytes) { return false }
        return true
    }

    /// Whether every text matching this query also matches `previous`: each term of
    /// `previous` occurs in one of this query's terms (the user typed on).
    func narrows(_ previous: SearchQuery) -> Bool {
        previous.terms.allSatisfy { old in
            terms.contains { new in new.withUnsafeBufferPointer { Self.occurs(old, in: $0) } }
        }
    }

    /// `text` folded for searching.
    static func fold(_ text: String) -> String {
        // Safe: the bytes are only read, within their count, inside the closure that lends them.
        let ascii = text.utf8.withContiguousStorageIfAvailable { foldASCII(text, utf8: $0) }
        return ascii.flatMap { $0 } ?? foldUnicode(text)
    }

    /// ASCII `text` (its `utf8`) with its capital letters lowered, in one pass: lowercase text
    /// is its own folding. Nil when there is a byte beyond ASCII.
    private static func foldASCII(_ text: String, utf8: UnsafeBufferPointer<UInt8>) -> String? {
        var capitals = 0
        for byte in utf8 {
            guard byte < 0x80 else { return nil }
            if byte &- UInt8(ascii: "A") < 26 { capitals += 1 }
        }
        guard capitals > 0 else { return text }
        return String(unsafeUninitializedCapacity: utf8.count) { folded in
            for (index, byte) in utf8.enumerated() { folded[index] = byte &- UInt8(ascii: "A") < 26 ? byte | 0x20 : byte }
            return utf8.count
        }
    }

    /// `text`, which has letters beyond ASCII, folded for searching.
    private static func foldUnicode(_ text: String) -> String {
        var scalars = String.UnicodeScalarView()
        for scalar in text.unicodeScalars {
            switch scalar {
            case "ё", "Ё": scalars.append("е")
            default: scalars.append(scalar)
            }
        }
        return String(scalars).folding(options: [.caseInsensitive, .diacriticInsensitive], locale: nil)
    }

    /// Whether `needle` occurs in `haystack` (both UTF-8 of folded text).
    private static func occurs(_ needle: [UInt8], in haystack: UnsafeBufferPointer<UInt8>) -> Bool {
        let count = needle.count
        guard count > 0 else { return true }
        guard haystack.count >= count else { return false }
        let first = needle[0]
        var start = 0
        let lastStart = haystack.count - count
        while start <= lastStart {
            if haystack[start] == first {
                var offset = 1
                while offset < count, haystack[start + offset] == needle[offset] { offset += 1 }
                if offset == count { return true }
            }
            start += 1
        }
        return false
    }
}
