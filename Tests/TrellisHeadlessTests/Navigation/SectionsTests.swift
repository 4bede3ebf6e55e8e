import Testing
import TrellisCore
import TrellisHeadless

/// An app's top-level sections (`Shell.sections`): which one a page belongs to, and opening
/// one in one step from anywhere.
@MainActor
@Suite("Sections")
struct SectionsTests {
    final class PlainPage: PageController {
        required init(values: RouteValues, shell: Shell) {
            super.init(values: values, shell: shell)
            title = values.path
            content = .text(values.path)
        }
    }

    private func makeShell() throws -> (Shell, HeadlessFrontend) {
        let shell = Shell()
        let screen = HeadlessFrontend(shell: shell)
        for pattern in ["/", "/notes", "/notes/:id", "/notes-per-day", "/people"] {
            try shell.route(pattern, to: PlainPage.self)
        }
        shell.sections = [ShellSection(title: "Notes", path: "/notes"), ShellSection(title: "Notes per day", path: "/notes-per-day"),
                          ShellSection(title: "People", path: "/people", iconName: "system-users-symbolic")]
        try shell.navigate(to: "/")
        return (shell, screen)
    }

    @Test("a page belongs to the section whose path is its longest prefix, segment by segment")
    func membership() throws {
        let notes = ShellSection(title: "Notes", path: "/notes")
        #expect(notes.contains("/notes") && notes.contains("/notes/42") && notes.contains("/notes?sort=date"))
        #expect(!notes.contains("/notes-per-day") && !notes.contains("/"))
        let (shell, screen) = try makeShell()
        #expect(shell.currentSection == nil, "the hub is in no section")
        try shell.navigate(to: "/notes-per-day")
        #expect(shell.currentSection?.title == "Notes per day")
        try shell.navigate(to: "/notes/7")
        #expect(shell.currentSection?.title == "Notes")
        #expect(screen.renderSections() == "> Notes  /notes\n  Notes per day  /notes-per-day\n  People  /people")
    }

    @Test("opening a section goes back to the root and pushes the section above it, from anywhere")
    func opening() throws {
        let (shell, _) = try makeShell()
        try shell.navigate(to: "/notes")
        try shell.navigate(to: "/notes/7")
        try shell.open(section: shell.sections[2])
        #expect(shell.navigator.stack.map(\.values.path) == ["/", "/people"])
        try shell.open(section: shell.sections[2])
        #expect(shell.navigator.stack.map(\.values.path) == ["/", "/people"], "opening the current section again keeps one page")
        #expect(shell.back() && shell.navigator.top?.values.path == "/", "Back from a section leads to the root")
    }
}
