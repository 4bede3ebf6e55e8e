import Testing
import TrellisCore

private struct Person: Codable {
    var firstName: String
    var lastName: String
    var age: Int
}

@Suite("Table builders")
@MainActor
struct BuilderTests {
    @Test("list(of:route:navigate:) makes a searchable catalog in one line")
    func catalogList() throws {
        var visited: [String] = []
        let catalog = TableContainer.list(of: CatalogFixture.genres, route: { "/catalog/\($0.id)" }, navigate: { visited.append($0) })
        #expect(catalog.isSearchable)
        #expect(catalog.flatCount == 214)
        catalog.searchText = "киберпанк"
        try catalog.activate(flatIndex: 0)
        #expect(visited == ["/catalog/\(CatalogFixture.genres.firstIndex(of: "Киберпанк")!)"])
    }

    @Test("list(of:sectionedBy:) shows section headers")
    func sectionedList() {
        let list = TableContainer.list(of: ["Бизнес", "Проза"], sectionedBy: { String($0.prefix(1)) }, route: { "/\($0.id)" }, navigate: { _ in })
        #expect(list.texts() == ["# Б", "Бизнес", "# П", "Проза"])
    }

    @Test("checklist makes checkbox rows with multiple selection")
    func checklist() throws {
        var selected: [TableItemID] = []
        let favourites = TableContainer.checklist(ArraySource(["Бизнес", "Проза", "Юмор"])) { selected = $0.selected }
        try favourites.toggle(flatIndex: 0)
        try favourites.toggle(flatIndex: 2)
        #expect(favourites.selection.mode == .multiple)
        #expect(selected == [TableItemID(0), TableItemID(2)])
        guard case .item(_, let cell) = favourites.flatRow(at: 1) else {
            Issue.record("row 1 is not an item")
            return
        }
        #expect(cell.checkbox == false)
    }

    @Test("activating a checklist row (a click anywhere on it) ticks and unticks its box")
    func checklistRowToggles() throws {
        var selected: [TableItemID] = []
        let favourites = TableContainer.checklist(ArraySource(["Бизнес", "Проза", "Юмор"])) { selected = $0.selected }
        #expect(favourites.activationToggles)
        try favourites.activate(flatIndex: 1)
        #expect(selected == [TableItemID(1)])
        #expect(favourites.isSelected(flatIndex: 1))
        try favourites.activate(flatIndex: 1)
        #expect(selected == [])
        #expect(!TableContainer.list(ArraySource(["Бизнес"])).activationToggles, "a plain list's rows open, not tick")
    }

    @Test("records shows the given keys as columns")
    func records() {
        let people = TableContainer.records(
            ArraySource([Person(firstName: "Ада", lastName: "Лавлейс", age: 36)]),
            keys: ["firstName", "lastName", "age"]
        )
        #expect(people.texts() == ["Ада | Лавлейс | 36"])
        #expect(people.selection.mode == .single)
    }
}
