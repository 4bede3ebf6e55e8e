import Testing
import TrellisCore
import TrellisHeadless
import TrellisTesting

/// Notices ("Deleted “Groceries” · Undo"): shown by the front end, hidden after their time or
/// at the next navigation, their undo run once, by the button or by Ctrl+Z on their page.
@MainActor
@Suite("Notices")
struct NoticeBoardTests {
    final class PlainPage: PageController {
        required init(values: RouteValues, shell: Shell) {
            super.init(values: values, shell: shell)
            title = values.path
        }
    }

    /// A page with unsaved changes of its own to undo.
    final class EditingPage: PageController {
        var undone = 0
        override var canUndo: Bool { undone == 0 }
        override func undo() { undone += 1 }
    }

    final class Counter { var count = 0 }

    private func makeShell() throws -> (Shell, HeadlessFrontend) {
        let shell = Shell()
        try shell.route("/", to: PlainPage.self)
        try shell.route("/other", to: PlainPage.self)
        try shell.route("/editor", to: EditingPage.self)
        let screen = HeadlessFrontend(shell: shell)
        try shell.navigate(to: "/")
        return (shell, screen)
    }

    @Test("a notice with an undo is shown with its button; Undo runs once and hides it")
    func undoButton() throws {
        let (shell, screen) = try makeShell()
        let undone = Counter()
        shell.notify("Deleted “Groceries”") { undone.count += 1 }
        #expect(screen.notice?.text == "Deleted “Groceries”")
        #expect(screen.notice?.undoLabel == "Undo")
        #expect(screen.render().split(separator: "\n").last == "[Deleted “Groceries” · (Undo)]", "\(screen.render())")
        try screen.pressNoticeUndo()
        #expect(undone.count == 1)
        #expect(screen.notice == nil)
        #expect(throws: HeadlessError.noNoticeUndo) { try screen.pressNoticeUndo() }
        shell.undo()
        #expect(undone.count == 1, "an undo runs once")
    }

    @Test("a notice without an undo has no button")
    func plainNotice() throws {
        let (shell, screen) = try makeShell()
        shell.notify("Saved")
        #expect(screen.notice?.undoLabel == nil)
        #expect(screen.render().contains("[Saved]"))
        #expect(!shell.notices.canUndo)
    }

    @Test("the next navigation hides the notice and drops its undo once its page is covered")
    func navigationHides() throws {
        let (shell, screen) = try makeShell()
        let undone = Counter()
        shell.notify("Deleted “Groceries”") { undone.count += 1 }
        try shell.navigate(to: "/other")
        #expect(screen.notice == nil)
        #expect(!shell.notices.canUndo)
        shell.back()
        shell.undo()
        #expect(undone.count == 0, "the undo belonged to the page as it was when the notice was posted")
    }

    @Test("after the notice hid by itself, Ctrl+Z on its page still takes the change back")
    func undoAfterExpiry() async throws {
        let (shell, screen) = try makeShell()
        let undone = Counter()
        shell.notify("Deleted “Groceries”", duration: .milliseconds(20)) { undone.count += 1 }
        #expect(screen.notice != nil)
        #expect(await eventually { screen.notice == nil }, "the notice hides after its time")
        #expect(shell.notices.canUndo)
        shell.undo()
        #expect(undone.count == 1)
    }

    @Test("a closed notice keeps its undo; a newer notice replaces the older one and its undo")
    func closeAndReplace() throws {
        let (shell, screen) = try makeShell()
        let first = Counter(), second = Counter()
        shell.notify("first") { first.count += 1 }
        shell.notices.dismiss()
        #expect(screen.notice == nil)
        #expect(shell.notices.canUndo)
        shell.notify("second") { second.count += 1 }
        #expect(screen.notice?.text == "second")
        shell.undo()
        #expect((first.count, second.count) == (0, 1))
    }

    @Test("Ctrl+Z undoes the page's own unsaved change before the notice's")
    func pageUndoFirst() throws {
        let (shell, _) = try makeShell()
        try shell.navigate(to: "/editor")
        let page = try #require(shell.navigator.top as? EditingPage)
        let undone = Counter()
        shell.notify("Deleted") { undone.count += 1 }
        shell.undo()
        #expect((page.undone, undone.count) == (1, 0))
        shell.undo()
        #expect((page.undone, undone.count) == (1, 1))
    }

    @Test("a notice whose button is not an undo (\"Plugins\"): shown with its label, run by its button once and hidden, never by Ctrl+Z")
    func actionButton() throws {
        let (shell, screen) = try makeShell()
        let opened = Counter()
        shell.notify("The plugin “Shelf” failed", button: "Plugins") { opened.count += 1 }
        #expect(screen.render().hasSuffix("[The plugin “Shelf” failed · (Plugins)]"), "\(screen.render())")
        #expect(screen.notice?.undoLabel == nil && screen.notice?.actionLabel == "Plugins")
        shell.undo()
        #expect(opened.count == 0, "Ctrl+Z is no way to open a page")
        #expect(screen.notice != nil)
        try screen.pressNoticeButton()
        #expect(opened.count == 1)
        #expect(screen.notice == nil)
        #expect(throws: HeadlessError.noNoticeButton) { try screen.pressNoticeButton() }
        #expect(opened.count == 1)
    }
}
