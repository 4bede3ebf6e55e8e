import Foundation
import Testing
import TrellisCore
import TrellisDemo
import TrellisHeadless
import TrellisTesting

/// The demo's custom page headless: `/notes-per-day` renders its model's lines, one per day
/// with a bar and the count, and follows the saves of the store live.
@MainActor
@Suite("Notes per day, headless")
struct NotesPerDayTests {
    /// Today as the model writes it.
    private var today: String {
        let format = DateFormatter()
        format.locale = Locale(identifier: "en_US_POSIX")
        format.dateFormat = "yyyy-MM-dd"
        return format.string(from: Date())
    }

    /// Saves a note titled `title` from the editor, waits for the notes list it leads to,
    /// and goes back to the chart.
    private func saveNote(_ title: String, count: Int, shell: Shell, screen: HeadlessFrontend) async throws {
        try shell.navigate(to: "/notes/new")
        try screen.fill("title", with: title)
        try screen.press("save")
        #expect(await eventually { screen.page?.values.path == "/notes" && screen.table?.container.flatCount == count })
        while screen.page?.values.path != "/notes-per-day" && screen.back() {}
    }

    @Test("the hub opens the chart, which says there are no notes yet")
    func emptyChart() async throws {
        let (shell, screen) = try await Fixtures.demo()
        try shell.navigate(to: "/")
        try screen.click(text: "Notes per day")  // by its title: the row also shows its summary
        #expect(screen.page?.values.path == "/notes-per-day")
        #expect(screen.render().split(separator: "\n").prefix(3) == ["< Notes per day", "===============", "No notes yet."],
                "\(screen.render())")
    }

    @Test("saved notes show as a bar per day, the busiest day 20 blocks long, while the page stays open")
    func liveBars() async throws {
        let (shell, screen) = try await Fixtures.demo()
        try shell.navigate(to: "/notes-per-day")
        let custom = try #require(screen.custom)
        var changes = 0
        let token = custom.onModelChanged { changes += 1 }
        // The chart follows the store's saves through fetched results of its own, not the
        // list's: the list may show a note a moment before the chart does.
        try await saveNote("Покупки", count: 1, shell: shell, screen: screen)
        #expect(await eventually { custom.textLines == ["\(today) \(String(repeating: "▇", count: 20)) 1"] }, "\(custom.textLines)")
        try await saveNote("Письма", count: 2, shell: shell, screen: screen)
        #expect(await eventually { custom.textLines == ["\(today) \(String(repeating: "▇", count: 20)) 2"] }, "\(custom.textLines)")
        try await screen.settle()
        #expect(screen.custom === custom, "the same page, kept under the editor and the list")
        // The header, its rule, the chart's line (then perhaps a plugin's status line).
        #expect(screen.render().split(separator: "\n").dropFirst(2).first == "\(today) ▇▇▇▇▇▇▇▇▇▇▇▇▇▇▇▇▇▇▇▇ 2", "\(screen.render())")
        #expect(changes == 2, "one change per save, the same page's model followed it")
        token.cancel()
    }

    @Test("notes of several days: a line per day, oldest first, each bar scaled to the busiest day")
    func severalDays() async throws {
        let (shell, screen) = try await Fixtures.demo()
        try shell.navigate(to: "/notes-per-day")
        let custom = try #require(screen.custom)
        let store = try #require(shell.resolve(StoreBox.self)?.store)
        let context = store.newContext()
        let noon = { (day: Int) in DateComponents(calendar: Calendar.current, year: 2026, month: 11, day: day, hour: 12).date! }
        for (index, day) in [20, 22, 20, 20].enumerated() {
            _ = try context.insert("Note", values: ["title": .string("Заметка \(index)"), "created": .date(noon(day)),
                                                    "updated": .date(noon(day))])
        }
        try context.save()
        #expect(await eventually { custom.textLines.count == 2 })
        #expect(custom.textLines == ["2026-11-20 \(String(repeating: "▇", count: 20)) 3",
                                     "2026-11-22 \(String(repeating: "▇", count: 7)) 1"])
    }
}
