import Testing
@testable import TrellisCore

/// `TableContainer.search(_:)`, as the window's search field uses it: the first search folds
/// the rows in slices, and a long list is compared in parts. Each result is checked against
/// the synchronous `searchText` on the same rows.
@Suite("TableContainer.search")
@MainActor
struct SearchOffMainTests {
    private let catalog = CatalogFixture.genres + ["ФЭНТЕЗИ", "Ёжики в тумане", "Еж и заяц", "Ёж"]

    /// The rows a synchronous search for `query` shows over `rows`.
    private func expected(_ rows: [String], _ query: String) -> [String] {
        let container = TableContainer(source: ArraySource(rows), searchable: true)
        container.searchText = query
        return container.texts()
    }

    @Test("typing on and erasing shows what the synchronous search shows, one change per keystroke")
    func typing() async {
        let container = TableContainer(source: ArraySource(catalog), searchable: true)
        let recorder = FlatRecorder(container)
        for query in ["ф", "фэ", "фэн", "фэнт", "фэн", "ф", "ёж", "фэнтези боевое", ""] {
            recorder.reset()
            await container.search(query)
            #expect(container.searchText == query)
            #expect(container.texts() == expected(catalog, query), "query \(query)")
            #expect(recorder.batches.count <= 1, "query \(query): \(recorder.batches)")
        }
        #expect(container.flatCount == catalog.count)
    }

    @Test("a search replaced by a later one never applies; the later one does")
    func superseded() async {
        let rows = (0..<30_000).map { "Row \($0)" }
        let container = TableContainer(source: ArraySource(rows), searchable: true)
        let recorder = FlatRecorder(container)
        // Tasks made on the main actor start on it in the order they were made.
        let first = Task { await container.search("row 1") }
        let second = Task { await container.search("row 29") }
        await first.value
        await second.value
        #expect(container.searchText == "row 29")
        expectSame(container, rows, "row 29")
        #expect(recorder.batches.count == 1, "only the latest search announced a change")
    }

    /// Expects `container` to show what a synchronous search for `query` over `rows` shows
    /// (reported by count and first rows: the lists run to thousands).
    private func expectSame(_ container: TableContainer, _ rows: [String], _ query: String,
                            sourceLocation: SourceLocation = #_sourceLocation) {
        let shown = container.texts(), wanted = expected(rows, query)
        #expect(shown == wanted, "“\(query)”: \(shown.count) rows \(shown.prefix(3)), expected \(wanted.count) \(wanted.prefix(3))",
                sourceLocation: sourceLocation)
    }

    @Test("rows that change while the folded texts are made or compared are searched as they are now")
    func rowsChangeMeanwhile() async throws {
        // Over two slices of folding, so the search yields while the rows change.
        let rows = (0..<(TableContainer.searchIndexSlice + 5_000)).map { "Row \($0)" }
        let source = ArraySource(rows)
        let container = TableContainer(source: source, searchable: true)
        let searching = Task { await container.search("row 7") }
        for step in 0..<6 {
            await Task.yield()
            try source.insert("Row 7 new \(step)", at: step * 3)
            try source.update(at: 100 + step, with: "Row 77 changed \(step)")
            _ = try source.remove(at: rows.count - 1 - step)
        }
        await searching.value
        let now = (0..<source.numberOfRows(inSection: 0)).map { source.element(at: TableIndexPath(section: 0, row: $0)) }
        expectSame(container, now, "row 7")
        // Later changes keep the filter: a new matching row shows, a non-matching one does not.
        try source.insert("Row 7 last", at: 0)
        try source.insert("Row 8 last", at: 0)
        expectSame(container, ["Row 8 last", "Row 7 last"] + now, "row 7")
    }

    @Test("the first search folds every row in slices and finds what the synchronous search finds")
    func slicedIndex() async {
        let rows = (0..<(2 * TableContainer.searchIndexSlice + 7)).map { "Row \($0)" }
        let container = TableContainer(source: ArraySource(rows), searchable: true)
        await container.search("row 4000")
        expectSame(container, rows, "row 4000")
    }

    @Test("a long list is compared in parts at the same time, and the parts join in order")
    func parts() async {
        let rows = (0..<(2 * TableSearcher.minimumPart + 1_234)).map { "Row \($0)" }
        let container = TableContainer(source: ArraySource(rows), searchable: true)
        for query in ["row 1", "row 9 0", "row"] {
            await container.search(query)
            expectSame(container, rows, query)
        }
    }

    @Test("sections are filtered each on their own, headers only above shown rows")
    func sections() async {
        let source = StaticSource([("Проза", ["Проза", "Русская проза"]), ("Фантастика", ["Фэнтези", "Космос"])])
        let container = TableContainer(source: source, searchable: true)
        await container.search("фэн")
        #expect(container.texts() == ["# Фантастика", "Фэнтези"])
        await container.search("проза")
        #expect(container.texts() == ["# Проза", "Проза", "Русская проза"])
        await container.search("")
        #expect(container.flatCount == 6)
    }
}
