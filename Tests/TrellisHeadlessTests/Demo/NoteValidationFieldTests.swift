import Foundation
import Testing
import TrellisCore
import TrellisHeadless
import TrellisTesting

/// A validation message names the field at fault (`PageController.messageField`), which front
/// ends mark: the window draws it as an error and ties the message to it for screen readers.
@MainActor
@Suite("Validation names its field")
struct NoteValidationFieldTests {
    @Test("a missing title marks the title field; a valid save clears the mark")
    func titleMarked() async throws {
        let (shell, screen) = try await Self.noteSavedWithoutTitle()
        defer { withExtendedLifetime(shell) {} }  // the screen holds it unowned
        #expect(screen.page?.messageField == "title")
        #expect(screen.render().contains("Title: [] !"), "\(screen.render())")
        #expect(screen.render().contains("Text: [text]\n"), "the text field is not marked")
        try screen.fill("title", with: "Заголовок")
        try screen.press("save")
        #expect(await eventually { screen.page?.values.path == "/notes" })
        #expect(screen.page?.messageField == nil)
    }

    @Test("a text over 1 MiB marks the text field")
    func bodyMarked() async throws {
        let (shell, screen) = try await Fixtures.demo()
        try shell.navigate(to: "/notes/new")
        try screen.fill("title", with: "Длинная")
        try screen.fill("body", with: String(repeating: "x", count: 1024 * 1024 + 1))
        try screen.press("save")
        #expect(await eventually { screen.page?.message != nil })
        #expect(screen.page?.messageField == "body")
        #expect(screen.page?.message?.hasPrefix("A note's text may have at most") == true)
    }

    @Test("editing the field a message names clears the message and the mark; editing another field does not")
    func editingTheFieldClearsTheMessage() async throws {
        let (shell, screen) = try await Self.noteSavedWithoutTitle()
        defer { withExtendedLifetime(shell) {} }  // the screen holds it unowned
        try screen.fill("body", with: "more text")
        #expect(screen.page?.message == "A note needs a title.", "the text field is not the one at fault")
        #expect(screen.page?.messageField == "title")
        try screen.fill("title", with: "З")
        #expect(screen.page?.message == nil)
        #expect(screen.page?.messageField == nil)
        #expect(screen.render().contains("Title: [З]\n"), "\(screen.render())")
        try screen.fill("title", with: "")
        #expect(screen.page?.message == nil, "the message comes back with the next save, not while typing")
    }

    @Test("clearing the message clears the field it named")
    func clearedWithTheMessage() async throws {
        let (shell, _) = try await Fixtures.demo()
        try shell.navigate(to: "/notes/new")
        let page = try #require(shell.navigator.top)
        page.messageField = "title"
        page.message = "wrong"
        page.message = nil
        #expect(page.messageField == nil)
    }

    /// The demo's note editor after Save with a text and no title: the message is shown. The
    /// shell is returned to keep it alive while the test reads the screen.
    private static func noteSavedWithoutTitle() async throws -> (Shell, HeadlessFrontend) {
        let (shell, screen) = try await Fixtures.demo()
        try shell.navigate(to: "/notes/new")
        try screen.fill("body", with: "text")
        try screen.press("save")
        #expect(await eventually { screen.page?.message != nil })
        return (shell, screen)
    }
}
