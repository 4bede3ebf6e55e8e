import Testing
import TrellisCore

@Suite("Callbacks")
@MainActor
struct CallbackTests {
    @Test("StandardCallbacks navigates to the route built from the activated item")
    func routeAndNavigate() throws {
        var visited: [String] = []
        let container = TableContainer.list(
            of: ["Проза", "Юмор", "Проза"],
            route: { "/catalog/\($0.id)" },
            navigate: { visited.append($0) }
        )
        try container.activate(flatIndex: 2)
        container.searchText = "юм"
        try container.activate(flatIndex: 0)
        #expect(visited == ["/catalog/2", "/catalog/1"])
    }

    @Test("StandardCallbacks calls its activation closure with the item")
    func onActivate() throws {
        var activated: [String] = []
        let container = TableContainer(
            source: ArraySource(["Проза", "Юмор"]),
            callbacks: StandardCallbacks(onActivate: { activated.append($0.value(as: String.self) ?? "?") })
        )
        try container.activate(flatIndex: 1)
        #expect(activated == ["Юмор"])
    }

    @Test("activating a header or a row out of range is refused and calls nothing")
    func refusedActivation() {
        var calls = 0
        let container = TableContainer(
            source: ArraySource(["Бизнес"], sectionedBy: { String($0.prefix(1)) }),
            callbacks: StandardCallbacks(onActivate: { _ in calls += 1 })
        )
        #expect(throws: TableContainerError.headerRow(index: 0, title: "Б")) { try container.activate(flatIndex: 0) }
        #expect(throws: TableContainerError.rowOutOfRange(index: 9, count: 2)) { try container.activate(flatIndex: 9) }
        #expect(calls == 0)
        #expect(TableContainerError.rowOutOfRange(index: 9, count: 2).description == "row 9 is out of range: the table shows 2 row(s)")
    }

    @Test("selection callbacks receive the whole selection and what was added and removed")
    func selectionCallbacks() throws {
        var changes: [SelectionChange] = []
        let container = TableContainer.checklist(ArraySource(["Бизнес", "Проза", "Юмор"])) { changes.append($0) }
        try container.toggle(flatIndex: 0)
        try container.toggle(flatIndex: 2)
        try container.toggle(flatIndex: 0)
        #expect(changes == [
            SelectionChange(selected: [TableItemID(0)], added: [TableItemID(0)], removed: []),
            SelectionChange(selected: [TableItemID(0), TableItemID(2)], added: [TableItemID(2)], removed: []),
            SelectionChange(selected: [TableItemID(2)], added: [], removed: [TableItemID(0)]),
        ])
    }
}
