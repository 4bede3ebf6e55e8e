import Testing
import TrellisCore

@Suite("TableSearcher")
@MainActor
struct SearchTests {
    /// The catalog plus spellings the data lacks: capitals, ё and е.
    private let catalog = CatalogFixture.genres + ["ФЭНТЕЗИ", "Ёжики в тумане", "Еж и заяц", "Ёж"]

    private func search(_ query: String) -> [String] {
        let container = TableContainer(source: ArraySource(catalog), searchable: true)
        container.searchText = query
        return container.texts()
    }

    @Test("the catalog fixture is the repository's data file")
    func fixture() {
        #expect(CatalogFixture.genres.count == 214)
        #expect(CatalogFixture.genres.first == "Любовные романы")
    }

    @Test("folding drops case and diacritics and maps ё to е")
    func folding() {
        #expect(TableSearcher.fold("ФЭНТЕЗИ") == "фэнтези")
        #expect(TableSearcher.fold("Фэнтези") == "фэнтези")
        #expect(TableSearcher.fold("Ёж") == "еж")
        #expect(TableSearcher.fold("ЁЖ") == TableSearcher.fold("еж"))
        #expect(TableSearcher.fold("Café") == "cafe")
        #expect(TableSearcher.fold("LitRPG") == "litrpg")
        #expect(TableSearcher.fold("Й") == "и", "diacritic folding turns й into и: accepted for search")
    }

    @Test("\"фэнтези\" finds every spelling of it in the catalog, and nothing else")
    func fantasy() {
        let found = search("фэнтези")
        let expected = catalog.filter { $0.lowercased().contains("фэнтези") }
        #expect(found == expected)
        #expect(found.contains("Фэнтези"))
        #expect(found.contains("ФЭНТЕЗИ"))
        #expect(found.contains("Технофэнтези"))
        #expect(!found.contains("Городское фентези"), "э and е are different letters")
        #expect(found.count == 12)
    }

    @Test("ё and е find each other in either case")
    func yo() {
        let found = search("ёж")
        #expect(Array(found.suffix(3)) == ["Ёжики в тумане", "Еж и заяц", "Ёж"])
        #expect(found.contains("Зарубежная фантастика"), "the е of \"Зарубежная\" matches ё")
        #expect(found.count == 11 + 3)
        #expect(search("ЕЖ") == found)
        #expect(search("ЁЖИ") == ["Ёжики в тумане"])
    }

    @Test("every whitespace-separated term must occur, in any order")
    func terms() {
        #expect(search("фэнтези боевое") == ["Боевое фэнтези"])
        #expect(search("  фэнтези   ") == search("фэнтези"))
    }

    @Test("a query of whitespace filters nothing")
    func blank() {
        #expect(search("   ").count == catalog.count)
    }

    @Test("typing on narrows the rows; deleting widens them again")
    func typing() {
        let container = TableContainer(source: ArraySource(catalog), searchable: true)
        var counts: [Int] = []
        for query in ["ф", "фэ", "фэн", "фэнт", "фэн", "ф", ""] {
            container.searchText = query
            counts.append(container.flatCount)
            #expect(container.texts() == catalog.filter { TableSearcher.matches($0, query: query) }, "query \(query)")
        }
        #expect(counts.first! > counts[3])
        #expect(counts.last == catalog.count)
    }

    @Test("typing on with several terms compares only what the rows shown may lack, and finds what a full search finds")
    func typingTerms() {
        let rows = catalog + (0..<3_000).map { "Row \($0)" }
        let container = TableContainer(source: ArraySource(rows), searchable: true)
        // Each narrows the one before (its terms inside the new ones) or starts again.
        for query in ["row", "row ", "row 1", "row 12", "row 12 2", "ro 12", "row 12 ow", "w 1 row", "1 2", "12 1", "12 1 0", "ф", "фэ", "ф э", ""] {
            container.searchText = query
            #expect(container.texts() == rows.filter { TableSearcher.matches($0, query: query) }, "query \(query)")
        }
    }

    @Test("a search change is one change spanning the rows between the unchanged ends")
    func searchChange() {
        let container = TableContainer(source: ArraySource(["аб", "вг", "ав", "дд", "ае"]), searchable: true)
        let recorder = FlatRecorder(container)
        container.searchText = "а"
        #expect(container.texts() == ["аб", "ав", "ае"])
        container.searchText = "ав"
        container.searchText = "а"
        container.searchText = ""
        #expect(recorder.batches == [
            [FlatChange(position: 1, removed: 3, added: 1)],
            [FlatChange(position: 0, removed: 3, added: 1)],
            [FlatChange(position: 0, removed: 1, added: 3)],
            [FlatChange(position: 1, removed: 1, added: 3)],
        ])
    }

    @Test("setting the same query again announces nothing")
    func sameQuery() {
        let container = TableContainer(source: ArraySource(catalog), searchable: true)
        container.searchText = "проза"
        let recorder = FlatRecorder(container)
        container.searchText = "ПРОЗА"
        #expect(recorder.batches.isEmpty)
    }

    @Test("a custom search key searches text the cells do not show")
    func customKey() {
        let source = ArraySource([["name": "Ада", "city": "Лондон"], ["name": "Алан", "city": "Уилмслоу"]] as [JSONValue])
        let container = TableContainer(
            source: source,
            cells: KeyValueCellProvider(keys: ["name"]),
            searchable: true,
            searchKey: { ($0.value(as: JSONValue.self)?["city"]?.stringValue) ?? "" }
        )
        container.searchText = "лондон"
        #expect(container.texts() == ["Ада"])
    }

    /// Shows a string row reversed, and searches what it shows.
    private struct ReversedCells: CellProvider {
        func cell(for item: TableItem, context: CellContext) -> Cell {
            Cell(columns: [String((item.value(as: String.self) ?? "").reversed())])
        }
    }

    @Test("rows of strings are searched as their cells show them, whatever the provider", arguments: [false, true])
    func stringRowsThroughTheirProvider(selectable: Bool) {
        let cells: any CellProvider = selectable ? SelectionCellProvider(wrapping: ReversedCells()) : ReversedCells()
        let container = TableContainer(source: ArraySource(["abc", "cba", "xyz"]), cells: cells, searchable: true)
        container.searchText = "ab"
        // The row "cba" shows "abc"; the row "abc" shows "cba", which does not match.
        #expect(container.texts() == ["abc"])
    }

    @Test("rows of strings are searched by a search key when there is one")
    func stringRowsThroughTheirKey() {
        let container = TableContainer(source: ArraySource(["Ада", "Алан"]), searchable: true,
                                       searchKey: { $0.value(as: String.self) == "Ада" ? "Лондон" : "Уилмслоу" })
        container.searchText = "лондон"
        #expect(container.texts() == ["Ада"])
    }

    @Test("rows of strings in a selectable list are searched as they are shown")
    func stringRowsInASelectableList() {
        let container = TableContainer(source: ArraySource(catalog), cells: SelectionCellProvider(wrapping: DescriptionCellProvider()),
                                       searchable: true)
        container.searchText = "ёж"
        #expect(container.texts() == catalog.filter { TableSearcher.fold($0).contains("еж") })
        #expect(container.texts().contains("Ёжики в тумане"))
    }
}
