import Testing
import TrellisCore
@testable import TrellisDemo
import TrellisHeadless

@Suite("Headless columns")
@MainActor
struct AlignedColumnsTests {
    private let columns = [TableColumn(key: "firstName", title: "First name"), TableColumn(key: "lastName", title: "Surname"),
                           TableColumn(key: "age", title: "Age")]
    private let people: [JSONValue] = [
        ["firstName": "Grace", "lastName": "Hopper", "age": 85],
        ["firstName": "Ada", "lastName": "Lovelace", "age": 9],
    ]

    @Test("a table with columns shows a header line, a rule and aligned cells; numbers to the right")
    func aligned() async throws {
        let view = HeadlessTableView(container: .records(ArraySource(people), columns: columns))
        #expect(view.screenLines() == [
            "First name  Surname   Age",
            "----------  --------  ---",
            "Grace       Hopper     85",
            "Ada         Lovelace    9",
        ])
        #expect(view.lines == ["Grace | Hopper | 85", "Ada | Lovelace | 9"], "rows keep their plain text for clicks")
    }

    @Test("a header click sorts ascending, a second descending; the sorted title is marked")
    func headerClicks() async throws {
        let view = HeadlessTableView(container: .records(ArraySource(people), columns: columns))
        try view.clickHeader(key: "age")
        #expect(view.screenLines() == [
            "First name  Surname   Age ▲",
            "----------  --------  -----",
            "Ada         Lovelace      9",
            "Grace       Hopper       85",
        ])
        try view.clickHeader(key: "age")
        #expect(view.screenLines()[0] == "First name  Surname   Age ▼")
        #expect(view.lines == ["Grace | Hopper | 85", "Ada | Lovelace | 9"])
        #expect(view.inconsistencies.isEmpty)
    }

    @Test("the people page shows columns and sorts in the store by a header click")
    func peoplePage() async throws {
        let (shell, screen) = try await Fixtures.demo()
        try shell.navigate(to: "/people")
        #expect(screen.table?.container.columnTitles == ["First name", "Surname", "Age"])
        let screenText = screen.render()
        #expect(screenText.contains("First name  Surname      Age"), "\(screenText)")
        #expect(screenText.contains("Grace       Hopper        85"), "\(screenText)")
        try screen.clickHeader(key: "age")
        #expect(screen.table?.lines == ["Ada | Lovelace | 36", "Фёдор | Достоевский | 59", "Анна | Ахматова | 76",
                                        "Лев | Толстой | 82", "Grace | Hopper | 85"])
        try screen.clickHeader(key: "firstName")
        #expect(screen.table?.lines.first == "Ada | Lovelace | 36")
        #expect(screen.table?.lines.last == "Фёдор | Достоевский | 59", "text sorts by code point, as SQLite's BINARY")
        #expect(throws: HeadlessError.self) { try screen.clickHeader(key: "nickname") }
    }
}
