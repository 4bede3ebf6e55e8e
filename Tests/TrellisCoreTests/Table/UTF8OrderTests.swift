import Testing
@testable import TrellisCore

/// `UTF8Order`: strings in the order of their UTF-8 bytes (SQLite's BINARY collation), sorted
/// through eight-byte keys after the prefix every string shares.
@Suite("UTF8Order")
struct UTF8OrderTests {
    /// The reference: positions sorted by comparing the whole UTF-8 bytes, ties by position.
    private func reference(_ strings: [String], ascending: Bool) -> [Int] {
        strings.indices.sorted { a, b in
            let (x, y) = (Array(strings[a].utf8), Array(strings[b].utf8))
            if x == y { return a < b }
            return ascending ? x.lexicographicallyPrecedes(y) : y.lexicographicallyPrecedes(x)
        }
    }

    @Test("random strings with long shared prefixes, duplicates, empty text, NUL and Unicode sort as their bytes, stably, both ways")
    func randomStrings() {
        var generator = SeededGenerator(seed: 11)
        let pieces = ["", "a", "ab", "Note number ", "Note number 1", "\u{0}", "é", "e\u{301}", "Ё", "z", "zz", "中文", "🙂"]
        for round in 0..<40 {
            let shared = round % 3 == 0 ? "Shared prefix longer than eight bytes: " : ""
            let strings = (0..<Int.random(in: 0...300, using: &generator)).map { _ in
                shared + (0..<Int.random(in: 0...4, using: &generator)).map { _ in pieces.randomElement(using: &generator)! }.joined()
            }
            for ascending in [true, false] {
                #expect(UTF8Order.stableOrder(of: strings, ascending: ascending) == reference(strings, ascending: ascending),
                        "round \(round), ascending \(ascending)")
            }
        }
    }

    @Test("a composed and a decomposed é are different text, as for SQLite (Swift's < calls them equal)")
    func canonicalEquivalents() {
        #expect(UTF8Order.compare("é", "e\u{301}") > 0)
        #expect(UTF8Order.compare("e\u{301}", "é") < 0)
        #expect(UTF8Order.compare("abc", "abc") == 0)
        #expect(UTF8Order.compare("ab", "abc") < 0)
        #expect(UTF8Order.stableOrder(of: ["é", "e\u{301}", "é"], ascending: true) == [1, 0, 2])
    }

    @Test("strings equal in their first eight bytes after the shared prefix are told apart by the rest")
    func equalKeys() {
        let strings = ["prefix-12345678b", "prefix-12345678a", "prefix-12345678", "prefix-12345678a"]
        #expect(UTF8Order.stableOrder(of: strings, ascending: true) == [2, 1, 3, 0])
        #expect(UTF8Order.stableOrder(of: strings, ascending: false) == [0, 1, 3, 2])
    }
}
