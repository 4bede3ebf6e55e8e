import Foundation
import Testing
import TrellisCore
import TrellisDemo
import TrellisHeadless

/// The headless script: its line format, its errors, and a run through the demo's pages.
@MainActor
@Suite("Headless scripts")
struct HeadlessScriptTests {
    @Test("steps keep their line numbers; comments and blank lines are skipped; a quoted text is a JSON string")
    func parsing() async throws {
        let script = try HeadlessScript(source: """
            # a comment

              navigate /notes/new
            fill body "two\\nlines, \\"quoted\\""
            fill title   Shopping list  
            press save
            """, name: "notes.script")
        #expect(script.steps.map(\.line) == [3, 4, 5, 6])
        #expect(script.steps.map(\.command) == ["navigate", "fill", "fill", "press"])
        #expect(script.steps[1].target == "body")
        #expect(script.steps[1].argument == "two\nlines, \"quoted\"")
        #expect(script.steps[2].argument == "Shopping list")
        #expect(script.steps[0].argument == "/notes/new")
    }

    @Test("a line that is not a step, or lacks what its step needs, is refused before anything runs, naming the line",
          arguments: [
              ("navigate /\nclick Фэнтези", "s:2: click Фэнтези: unknown step \"click\" (steps: back, expect, fill, navigate, press, print, select, sort, toggle, type, undo)"),
              ("navigate", "s:1: navigate: navigate needs something after it"),
              ("fill", "s:1: fill: fill needs a name, then a text"),
              ("print everything", "s:1: print everything: print takes nothing after it"),
              ("fill body \"unterminated", "s:1: fill body \"unterminated: the quoted text is not a JSON string: \"unterminated"),
          ])
    func refusedLines(source: String, error: String) {
        #expect { try HeadlessScript(source: source, name: "s") } throws: { String(describing: $0) == error }
    }

    @Test("a script drives the catalog: search, select, expect, print, back")
    func runsOnPages() async throws {
        let (shell, screen) = try await Fixtures.demo()
        defer { withExtendedLifetime(shell) {} }
        let script = try HeadlessScript(source: """
            navigate /catalog
            type фэнтези
            select Фэнтези
            expect Genre: Фэнтези
            print
            back
            select #0
            """, name: "catalog")
        var printed: [String] = []
        try await script.run(on: screen) { printed.append($0) }
        #expect(printed.count == 1)
        #expect(printed.first?.contains("Genre: Фэнтези") == true)
        #expect(screen.page?.values.path.hasPrefix("/catalog/") == true)
    }

    @Test("undo brings a deleted note back, as Ctrl+Z does on the notes list")
    func undoesADelete() async throws {
        let (shell, screen) = try await Fixtures.demo()
        defer { withExtendedLifetime(shell) {} }
        let script = try HeadlessScript(source: """
            navigate /notes/new
            fill title Покупки
            press save
            expect Покупки
            select Покупки
            press delete
            press delete
            expect [Deleted “Покупки” · (Undo)]
            undo
            expect Покупки |
            """, name: "undo")
        try await script.run(on: screen) { _ in }
        #expect(screen.page?.values.path == "/notes")
        #expect(screen.table?.container.flatCount == 1)
    }

    @Test("sort clicks a column header: the people page sorts by age, then by age descending")
    func sortsByAColumn() async throws {
        let (shell, screen) = try await Fixtures.demo()
        defer { withExtendedLifetime(shell) {} }
        let script = try HeadlessScript(source: """
            navigate /people
            sort age
            expect Age ▲
            sort age
            expect Age ▼
            print
            """, name: "people")
        var printed: [String] = []
        try await script.run(on: screen) { printed.append($0) }
        let lines = printed.first?.split(separator: "\n").map(String.init) ?? []
        #expect(lines.dropFirst(2).prefix(3) == ["First name  Surname      Age ▼", "----------  -----------  -----",
                                                 "Grace       Hopper          85"], "\(lines)")
        #expect(lines.contains("Ada         Lovelace        36"), "\(lines)")
    }

    @Test("a step that fails names the line, the step and what the page offers instead")
    func runtimeErrors() async throws {
        let (shell, screen) = try await Fixtures.demo()
        defer { withExtendedLifetime(shell) {} }
        let script = try HeadlessScript(source: "navigate /notes\npress save\n", name: "s")
        await #expect { try await script.run(on: screen) { _ in } } throws: {
            String(describing: $0) == #"s:2: press save: no button "save" on this page (buttons: new)"#
        }
        let expecting = try HeadlessScript(source: "navigate /catalog\nexpect Nowhere\n", name: "s")
        await #expect { try await expecting.run(on: screen, patience: .milliseconds(50)) { _ in } } throws: {
            String(describing: $0).hasPrefix("s:2: expect Nowhere: the screen does not show \"Nowhere\" after")
        }
        let app = try HeadlessScript(source: "navigate /catalog\nsync\n", name: "s", extraCommands: ["sync"])
        var synced = 0
        try await app.run(on: screen, commands: ["sync": { _ in synced += 1 }]) { _ in }
        #expect(synced == 1)
    }

    /// A page with three header buttons, two of them labelled alike; it records what was pressed.
    final class ButtonsPage: PageController {
        static var pressed: [String] = []
        required init(values: RouteValues, shell: Shell) {
            super.init(values: values, shell: shell)
            title = "Buttons"
            actions = [PageAction(id: "add-item", label: "Add"), PageAction(id: "left", label: "Same"), PageAction(id: "right", label: "Same")]
        }
        override func perform(pageAction id: String) { Self.pressed.append(id) }
    }

    @Test("press finds a button by its id, else by its label when one button only has it (a plugin's page action is pressed as \"press Add\")")
    func pressByLabel() async throws {
        let shell = Shell()
        let screen = HeadlessFrontend(shell: shell)
        try shell.route("/buttons", to: ButtonsPage.self)
        ButtonsPage.pressed = []
        try await HeadlessScript(source: "navigate /buttons\npress Add\npress right\n", name: "s").run(on: screen) { _ in }
        #expect(ButtonsPage.pressed == ["add-item", "right"])
        let ambiguous = try HeadlessScript(source: "navigate /buttons\npress Same\n", name: "s")
        await #expect { try await ambiguous.run(on: screen) { _ in } } throws: {
            String(describing: $0) == #"s:2: press Same: 2 buttons are labelled "Same": press one by its id (buttons: add-item, left, right)"#
        }
        #expect(ButtonsPage.pressed == ["add-item", "right"])
    }
}
