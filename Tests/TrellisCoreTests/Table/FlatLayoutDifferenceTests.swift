import Testing
@testable import TrellisCore

/// `FlatLayout.difference` skips the sections that show the same rows in both layouts; the
/// change it finds must still be the one a position-by-position comparison finds.
@Suite("FlatLayout.difference")
struct FlatLayoutDifferenceTests {
    /// The change by comparing every position from both ends.
    private func scanned(_ old: FlatLayout, _ new: FlatLayout) -> FlatChange? {
        let shorter = min(old.count, new.count)
        var prefix = 0
        while prefix < shorter, old.position(at: prefix) == new.position(at: prefix) { prefix += 1 }
        var suffix = 0
        while suffix < shorter - prefix, old.position(at: old.count - 1 - suffix) == new.position(at: new.count - 1 - suffix) {
            suffix += 1
        }
        let removed = old.count - prefix - suffix, added = new.count - prefix - suffix
        return removed > 0 || added > 0 ? FlatChange(position: prefix, removed: removed, added: added) : nil
    }

    @Test("random filters of the same sections: the same change as comparing every position")
    func randomFilters() {
        var generator = SeededGenerator(seed: 11)
        for _ in 0..<300 {
            let sections = (0..<Int.random(in: 1...5, using: &generator)).map { _ in
                (title: Bool.random(using: &generator) ? "S" : nil, rows: Int.random(in: 0...12, using: &generator))
            }
            func filtered() -> FlatLayout {
                FlatLayout(sections: sections.map { section in
                    let visible: [Int]? = switch Int.random(in: 0..<4, using: &generator) {
                    case 0: nil
                    case 1: Array(0..<section.rows)
                    default: (0..<section.rows).filter { _ in Int.random(in: 0..<3, using: &generator) > 0 }
                    }
                    return FlatLayout.Section(title: section.title, rowCount: section.rows, visibleRows: visible)
                })
            }
            let old = filtered(), new = filtered()
            #expect(FlatLayout.difference(from: old, to: new) == scanned(old, new), "\(old.sections) → \(new.sections)")
        }
    }

    @Test("every row listed and no list are the same rows: no change")
    func allRowsEitherWay() {
        let unfiltered = FlatLayout(sections: [.init(title: "A", rowCount: 1_000_000, visibleRows: nil)])
        let listed = FlatLayout(sections: [.init(title: "A", rowCount: 1_000_000, visibleRows: Array(0..<1_000_000))])
        #expect(FlatLayout.difference(from: unfiltered, to: listed) == nil)
        #expect(FlatLayout.difference(from: listed, to: unfiltered) == nil)
    }
}
