import Testing
@testable import TrellisCore

@Suite("Table placeholder")
@MainActor
struct TablePlaceholderTests {
    @Test("an empty table shows its empty text, and none once it has a row")
    func emptyText() throws {
        let source = ArraySource<String>([])
        let table = TableContainer(source: source, searchable: true)
        #expect(table.placeholder == nil, "no empty text, no placeholder")
        table.emptyText = "No notes yet."
        #expect(table.placeholder == "No notes yet.")
        source.insert("first")
        #expect(table.placeholder == nil)
        try source.remove(at: 0)
        #expect(table.placeholder == "No notes yet.")
    }

    @Test("a search that hides every row says so, naming the search; clearing it brings the rows back")
    func nothingMatches() {
        let table = TableContainer(source: ArraySource(["Фэнтези", "Ужасы"]), searchable: true)
        table.emptyText = "Empty"
        table.searchText = "фэн"
        #expect(table.placeholder == nil)
        table.searchText = "детектив"
        #expect(table.flatCount == 0)
        #expect(table.placeholder == "Nothing matches “детектив”.")
        table.searchText = ""
        #expect(table.placeholder == nil)
    }

    @Test("searching an empty table shows its empty text, not a failed search")
    func searchingAnEmptyTable() {
        let table = TableContainer(source: ArraySource<String>([]), searchable: true)
        table.emptyText = "No notes yet."
        table.searchText = "x"
        #expect(table.placeholder == "No notes yet.")
    }
}
