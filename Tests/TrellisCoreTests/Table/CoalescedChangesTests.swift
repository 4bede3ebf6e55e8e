import Testing
@testable import TrellisCore

/// `TableContainer.coalescingChanges`: changes announced one row at a time reach the observers
/// as the fewest `items-changed` that give the same model.
@MainActor
@Suite("Coalesced changes")
struct CoalescedChangesTests {
    /// Applies `changes` to an array of `count` numbered rows, as GTK would.
    private func apply(_ changes: [FlatChange], to rows: [Int], adding next: inout Int) -> [Int] {
        var rows = rows
        for change in changes {
            rows.replaceSubrange(change.position..<(change.position + change.removed),
                                 with: (0..<change.added).map { _ in defer { next += 1 }; return next })
        }
        return rows
    }

    @Test("inserts, deletes and updates row by row merge into one change each", arguments: [
        ([FlatChange(position: 3, removed: 0, added: 1), .init(position: 4, removed: 0, added: 1), .init(position: 5, removed: 0, added: 1)],
         [FlatChange(position: 3, removed: 0, added: 3)]),
        ([FlatChange(position: 3, removed: 1, added: 0), .init(position: 3, removed: 1, added: 0)], [FlatChange(position: 3, removed: 2, added: 0)]),
        ([FlatChange(position: 5, removed: 1, added: 0), .init(position: 4, removed: 1, added: 0)], [FlatChange(position: 4, removed: 2, added: 0)]),
        ([FlatChange(position: 2, removed: 1, added: 1), .init(position: 3, removed: 1, added: 1)], [FlatChange(position: 2, removed: 2, added: 2)]),
        ([FlatChange(position: 2, removed: 0, added: 3), .init(position: 3, removed: 1, added: 1)], [FlatChange(position: 2, removed: 0, added: 3)]),
        ([FlatChange(position: 2, removed: 0, added: 1), .init(position: 7, removed: 0, added: 1)],
         [FlatChange(position: 2, removed: 0, added: 1), .init(position: 7, removed: 0, added: 1)]),
    ])
    func merged(changes: [FlatChange], expected: [FlatChange]) {
        var merged: [FlatChange] = []
        for change in changes { merged.appendMerging(change) }
        #expect(merged == expected)
        // Same length of model either way (the added rows' contents are new in both).
        var a = 100, b = 100
        #expect(apply(merged, to: Array(0..<10), adding: &a).count == apply(changes, to: Array(0..<10), adding: &b).count)
    }

    @Test("a container tells its observers once, after the body, with the merged change")
    func container() {
        let source = ArraySource(["a", "b"])
        let container = TableContainer(source: source)
        var told: [[FlatChange]] = []
        let token = container.onFlatChanges { told.append($0) }
        container.coalescingChanges {
            for index in 0..<500 { try? source.insert("row \(index)", at: 1 + index) }
        }
        #expect(told == [[FlatChange(position: 1, removed: 0, added: 500)]])
        #expect(container.flatCount == 502)
        withExtendedLifetime(token) {}
    }
}
