import Testing
import TrellisCore
import TrellisHeadless

@Suite("HeadlessTableView")
@MainActor
struct HeadlessTableViewTests {
    @Test("renders headers, plain rows and the selected row")
    func rendering() throws {
        let source = ArraySource(["Бизнес", "Бокс", "Проза"], sectionedBy: { String($0.prefix(1)) })
        let view = HeadlessTableView(container: TableContainer(source: source, selectionMode: .single))
        try view.select(text: "Бокс")
        #expect(view.lines == ["== Б ==", "Бизнес", "Бокс (selected)", "== П ==", "Проза"])
        #expect(view.text == "== Б ==\nБизнес\nБокс (selected)\n== П ==\nПроза")
    }

    @Test("renders checkbox rows as [x] and [ ], toggled by clicks on the box")
    func checkboxes() throws {
        var selected: [TableItemID] = []
        let view = HeadlessTableView(container: .checklist(ArraySource(["Мистика", "Киберпанк"])) { selected = $0.selected })
        #expect(view.lines == ["[ ] Мистика", "[ ] Киберпанк"])
        try view.toggle(text: "Киберпанк")
        #expect(view.lines == ["[ ] Мистика", "[x] Киберпанк"])
        try view.toggle(row: 1)
        #expect(view.lines == ["[ ] Мистика", "[ ] Киберпанк"])
        #expect(selected.isEmpty)
    }

    @Test("renders records as their columns")
    func records() {
        let people: [JSONValue] = [["firstName": "Ада", "lastName": "Лавлейс", "age": 36]]
        let view = HeadlessTableView(container: .records(ArraySource(people), keys: ["firstName", "lastName", "age"]))
        #expect(view.lines == ["Ада | Лавлейс | 36"])
    }

    @Test("a click on a row activates its item; by text, the first row reading so")
    func clicks() throws {
        var visited: [String] = []
        let view = HeadlessTableView(container: .list(
            of: ["Проза", "Юмор", "Проза"], route: { "/catalog/\($0.id)" }, navigate: { visited.append($0) }
        ))
        try view.click(row: 2)
        try view.click(text: "Проза")
        try view.click(text: "Юмор")
        #expect(visited == ["/catalog/2", "/catalog/0", "/catalog/1"])
    }

    @Test("clicks on missing rows, headers or unselectable rows are refused with a reason")
    func refusedClicks() {
        let source = ArraySource(["Бизнес"], sectionedBy: { String($0.prefix(1)) })
        let view = HeadlessTableView(container: TableContainer(source: source))
        #expect(throws: HeadlessTableError.noRow(text: "Юмор", shown: 2)) { try view.click(text: "Юмор") }
        #expect(throws: HeadlessTableError.rejected(.rowOutOfRange(index: 5, count: 2))) { try view.click(row: 5) }
        #expect(throws: HeadlessTableError.rejected(.headerRow(index: 0, title: "Б"))) { try view.click(row: 0) }
        #expect(throws: HeadlessTableError.rejected(.selectionDisabled(index: 1))) { try view.toggle(row: 1) }
        #expect(HeadlessTableError.noRow(text: "Юмор", shown: 2).description == "no row reads \"Юмор\" among the 2 row(s) shown")
    }

    @Test("typing into the search field filters the rows keystroke by keystroke")
    func typing() {
        let view = HeadlessTableView(container: .list(of: ["Фэнтези", "ФЭНТЕЗИ", "Ёжик", "Проза"], route: { "/\($0.id)" }, navigate: { _ in }))
        view.type("фэн")
        #expect(view.searchText == "фэн")
        #expect(view.lines == ["Фэнтези", "ФЭНТЕЗИ"])
        view.deleteBackward()
        view.deleteBackward()
        view.deleteBackward()
        #expect(view.lines.count == 4)
        view.type("еж")
        #expect(view.lines == ["Ёжик"])
        view.clearSearch()
        #expect(view.lines == ["Фэнтези", "ФЭНТЕЗИ", "Ёжик", "Проза"])
        #expect(view.inconsistencies.isEmpty)
    }

    @Test("the lines follow live changes of the source through the announced changes only")
    func liveChanges() throws {
        let source = ArraySource(["Бизнес", "Проза", "Психология"], sectionedBy: { String($0.prefix(1)) })
        let view = HeadlessTableView(container: TableContainer(source: source, selectionMode: .multiple, searchable: true))
        try view.toggle(text: "Проза")
        view.type("п")
        source.insert("Поэзия")
        try source.remove(at: TableIndexPath(section: 0, row: 0))
        try source.update(at: TableIndexPath(section: 0, row: 1), with: "Публицистика")
        try source.move(from: TableIndexPath(section: 0, row: 2), to: TableIndexPath(section: 0, row: 0))
        #expect(view.lines == ["== П ==", "Поэзия", "Проза (selected)", "Публицистика"])
        #expect(view.lines == view.render())
        #expect(view.inconsistencies.isEmpty)
        #expect(view.deliveredChanges.count >= 5)
    }
}
