import Foundation
import Testing
import TrellisCore
import TrellisDemo
import TrellisHeadless
import TrellisTesting

/// Deleting a note asks nothing more than a second press, and is undoable: the notes list shows
/// "Deleted “Title” · Undo", and Undo (or Ctrl+Z on the list) brings the note back with its id.
@MainActor
@Suite("Deleting a note, undoably")
struct NoteDeleteUndoTests {
    /// Saves a note titled `title` from the editor and returns its path, `/notes/<id>`.
    private func saveNote(_ title: String, shell: Shell, screen: HeadlessFrontend) async throws -> String {
        try shell.navigate(to: "/notes/new")
        try screen.fill("title", with: title)
        try screen.fill("body", with: "хлеб, молоко")
        try screen.press("save")
        #expect(await eventually { screen.page?.values.path == "/notes" && screen.table?.container.flatCount == 1 })
        try screen.click(row: 0)
        return try #require(screen.page?.values.path)
    }

    /// Presses Delete twice in the editor on screen and waits for the notes list.
    private func delete(screen: HeadlessFrontend) async throws {
        try screen.press("delete")
        try screen.press("delete")
        #expect(await eventually { screen.page?.values.path == "/notes" && screen.table?.container.flatCount == 0 })
        // The notice follows the return to the list (the delete's view object posts it after
        // navigating): on a loaded machine the list can be seen first.
        #expect(await eventually { screen.notice != nil })
    }

    @Test("the editor that deleted its note does not say the note was deleted elsewhere")
    func notNewsFromElsewhere() async throws {
        let (shell, screen) = try await Fixtures.demo()
        _ = try await saveNote("Здесь", shell: shell, screen: screen)
        let editor = try #require(shell.navigator.top)
        try await delete(screen: screen)
        try await screen.settle()
        #expect(editor.message == nil, "a screen reader would have read it out as the notes list came back")
    }

    @Test("the notice's Undo brings the deleted note back with the same id and text")
    func undoButton() async throws {
        let (shell, screen) = try await Fixtures.demo()
        let path = try await saveNote("Покупки", shell: shell, screen: screen)
        try await delete(screen: screen)
        try await screen.settle()
        #expect(screen.notice?.text == "Deleted “Покупки”")
        #expect(screen.render().contains("[Deleted “Покупки” · (Undo)]"), "\(screen.render())")
        try screen.pressNoticeUndo()
        #expect(await eventually { screen.table?.container.flatCount == 1 })
        #expect(screen.notice == nil)
        try screen.click(row: 0)
        #expect(screen.page?.values.path == path, "the same id: links to the note still work")
        #expect(screen.form?.values == ["title": "Покупки", "body": "хлеб, молоко"])
    }

    @Test("after the notice is gone, Ctrl+Z on the notes list still brings the note back")
    func ctrlZ() async throws {
        let (shell, screen) = try await Fixtures.demo()
        let path = try await saveNote("Черновик", shell: shell, screen: screen)
        try await delete(screen: screen)
        try await screen.settle()
        shell.notices.dismiss()
        #expect(screen.notice == nil)
        shell.undo()  // what win.undo (Ctrl+Z) does
        #expect(await eventually { screen.table?.container.flatCount == 1 })
        try screen.click(row: 0)
        #expect(screen.page?.values.path == path)
    }

    @Test("leaving the notes list ends the undo: Ctrl+Z elsewhere brings nothing back")
    func navigationEndsUndo() async throws {
        let (shell, screen) = try await Fixtures.demo()
        _ = try await saveNote("Ушла", shell: shell, screen: screen)
        try await delete(screen: screen)
        try await screen.settle()
        try shell.navigate(to: "/catalog")
        #expect(screen.notice == nil)
        shell.undo()
        try await screen.settle()
        shell.back()
        try await screen.settle()
        #expect(screen.table?.container.flatCount == 0)
    }
}
