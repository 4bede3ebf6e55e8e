import Foundation
import Testing
import TrellisCore
import TrellisDemo
import TrellisHeadless
import TrellisStore
import TrellisTesting

/// Notes: edited in a form, validated and saved through the front controller, listed live from
/// the store, undoable before saving, kept across restarts.
@MainActor
@Suite("Notes flow, headless")
struct NotesFlowTests {
    @Test("a note without a title is rejected with a visible message and nothing is saved")
    func rejectsEmptyTitle() async throws {
        let (shell, screen) = try await Fixtures.demo()
        try shell.navigate(to: "/notes/new")
        try screen.fill("title", with: "   ")
        try screen.fill("body", with: "text without a title")
        try screen.press("save")
        #expect(await eventually { screen.page?.message != nil })
        #expect(screen.render().contains("! A note needs a title."))
        #expect(screen.page?.values.path == "/notes/new", "the editor stays, with what was typed")
        #expect(screen.form?["body"] == "text without a title")
        try shell.navigate(to: "/notes")
        #expect(screen.table?.container.flatCount == 0)
        #expect(screen.render().split(separator: "\n").contains("  No notes yet. Press + or Ctrl+N to write one."), "\(screen.render())")
    }

    @Test("a note's path whose id is not a UUID shows an error naming the route, the parameter and the value")
    func invalidNoteID() async throws {
        let (shell, screen) = try await Fixtures.demo()
        try shell.navigate(to: "/notes/5")
        #expect(screen.render().contains(#""/notes/5": parameter "id" of /notes/:id is "5", which is not a UUID"#),
                "\(screen.render())")
    }

    @Test("a request's error reaches the editor that sent it, not the page the user opened since")
    func errorReachesItsEditor() async throws {
        let (shell, screen) = try await Fixtures.demo()
        try shell.navigate(to: "/notes/new")
        let first = try #require(screen.page)
        try screen.fill("title", with: "   ")
        try screen.press("save")
        try shell.navigate(to: "/catalog")  // before the request's objects run
        let second = try #require(screen.page)
        #expect(first !== second)
        try await screen.settle()
        #expect(first.message == "A note needs a title.")
        #expect(second.message == nil)
        #expect(screen.page === second, "the window stays on the page the user opened")
    }

    @Test("a save tells the editor that sent it, not the note the user opened before it finished")
    func saveReachesItsEditor() async throws {
        let (shell, screen) = try await Fixtures.demo()
        let store = try #require(shell.resolve(StoreBox.self)?.store)
        let context = store.newContext()
        func insert(_ title: String) throws -> ObjectID {
            try context.insert("Note", values: ["title": .string(title), "created": .date(Date()), "updated": .date(Date())]).objectID
        }
        let (a, b) = (try insert("A"), try insert("B"))
        try context.save()

        try shell.navigate(to: "/notes/\(a.uuid)")
        let editorA = try #require(screen.page)
        try screen.fill("title", with: "A, edited")
        try screen.press("save")
        try shell.navigate(to: "/notes/\(b.uuid)")  // before the request's objects run
        let editorB = try #require(screen.page)
        try screen.fill("title", with: "B, being typed")
        try await screen.settle()

        #expect(!editorA.canUndo, "A's editor was told: its typing is saved and forgotten")
        #expect(editorB.canUndo, "B's editor keeps its typing")
        #expect(screen.page === editorB && screen.form?["title"] == "B, being typed",
                "the window stays on B instead of going back to the list")
        #expect(try store.newContext().object(with: a)?["title"] == "A, edited")
    }

    @Test("a title over 200 characters is rejected naming the limit")
    func rejectsLongTitle() async throws {
        let (shell, screen) = try await Fixtures.demo()
        try shell.navigate(to: "/notes/new")
        try screen.fill("title", with: String(repeating: "я", count: 201))
        try screen.press("save")
        #expect(await eventually { screen.page?.message != nil })
        #expect(screen.page?.message == "A title may have at most 200 characters; this one has 201.")
    }

    @Test("saving a note goes back to the list, which shows it live; it is in the file; edit and delete work")
    func savesAndLists() async throws {
        let url = Fixtures.temporaryStoreURL()
        let (shell, screen) = try await Fixtures.demo(storeURL: url)
        try shell.navigate(to: "/notes")
        try screen.pressPageAction("new")
        try screen.fill("title", with: "Покупки")
        try screen.fill("body", with: "хлеб, молоко")
        try screen.press("save")
        #expect(await eventually { screen.page?.values.path == "/notes" && screen.table?.container.flatCount == 1 })
        #expect(screen.table?.render() == ["Покупки | хлеб, молоко"])
        // A read-only look at the file, as the next launch would see it (the GUI test
        // NotesWindowTests reopens it in a second process).
        let file = try StoreSnapshot(of: url, dataDirectory: Fixtures.dataDirectory)
        #expect(file.lines.filter { $0.hasPrefix("Note ") && $0.contains("Покупки") && $0.contains("хлеб, молоко") }.count == 1, "\(file)")
        #expect(file.integrity == ["ok"])
        try screen.click(row: 0)
        #expect(screen.form?["title"] == "Покупки")
        try screen.fill("title", with: "Покупки на завтра")
        try screen.press("save")
        #expect(await eventually { screen.table?.render() == ["Покупки на завтра | хлеб, молоко"] })
        try screen.click(row: 0)
        try screen.press("delete")
        #expect(screen.page?.message == "Press Delete again to delete “Покупки на завтра” for good.")
        try await screen.settle()
        #expect(screen.page?.values.path != "/notes", "one press deletes nothing")
        try screen.press("delete")
        #expect(await eventually { screen.page?.values.path == "/notes" && screen.table?.container.flatCount == 0 })
        #expect(screen.table?.container.placeholder == "No notes yet. Press + or Ctrl+N to write one.", "the last note deleted")
    }

    @Test("typing left unsaved (Back, or a restart) comes back in the next editor of the note, until saved or discarded")
    func draftsAreKept() async throws {
        let url = Fixtures.temporaryStoreURL()
        do {
            let (shell, screen) = try await Fixtures.demo(storeURL: url)
            try shell.navigate(to: "/notes/new")
            try screen.fill("title", with: "Черновик")
            try screen.fill("body", with: "не потерять")
            _ = shell.back()  // Back (or Escape) without saving
            try shell.navigate(to: "/notes/new")
            #expect(screen.form?["title"] == "Черновик", "the same run: the draft is back")
            #expect(screen.page?.message == "Your unsaved changes are back. Save keeps them; Discard changes drops them.")
        }
        let (shell, screen) = try await Fixtures.demo(storeURL: url)  // the next run
        try shell.navigate(to: "/notes/new")
        #expect(screen.form?["title"] == "Черновик")
        #expect(screen.form?["body"] == "не потерять")
        try screen.press("save")
        #expect(await eventually { screen.page?.values.path == "/notes" && screen.table?.container.flatCount == 1 })
        try shell.navigate(to: "/notes/new")
        #expect(screen.form?["title"] == "", "a saved draft is not offered again")
        try screen.fill("title", with: "передумал")
        try screen.press("discard")
        #expect(screen.form?["title"] == "")
        _ = shell.back()
        try shell.navigate(to: "/notes/new")
        #expect(screen.form?["title"] == "", "a discarded draft is gone")
    }

    @Test("undo and redo step through unsaved typing, one field's run of typing at a time")
    func undoRedo() async throws {
        let (shell, screen) = try await Fixtures.demo()
        try shell.navigate(to: "/notes/new")
        let page = try #require(screen.page)
        #expect(!page.canUndo)
        try screen.fill("title", with: "a")
        try screen.fill("title", with: "ab")
        try screen.fill("body", with: "text")
        #expect(page.canUndo)
        page.undo()
        #expect(screen.form?.values == ["title": "ab", "body": ""])
        page.undo()
        #expect(screen.form?.values == ["title": "", "body": ""])
        #expect(!page.canUndo)
        page.redo()
        #expect(screen.form?.values == ["title": "ab", "body": ""])
    }

    @Test("a save sent by name with a parameter of the wrong type is refused on the editor, naming it; nothing is saved")
    func malformedSaveByName() async throws {
        let (shell, screen) = try await Fixtures.demo()
        try shell.navigate(to: "/notes/new")
        let editor = try #require(shell.navigator.top)
        let outcome = await shell.controller.submit("note.save", parameters: ["title": 5, "body": ""], from: editor.id).outcome
        #expect(outcome.failure?.reason == "command 'note.save': parameter 'title' should be String, but it is 5")
        #expect(editor.message == outcome.failure?.reason)
        try shell.navigate(to: "/notes")
        #expect(screen.table?.container.flatCount == 0)
    }

    @Test("the request's lifecycle is on the bus: started, then validation-failed or finished")
    func lifecycleEvents() async throws {
        let (shell, screen) = try await Fixtures.demo()
        let log = EventRecorder(bus: shell.bus, pattern: "request:*")
        try shell.navigate(to: "/notes/new")
        try screen.press("save")
        #expect(await eventually { log.messages.count >= 2 })
        try screen.fill("title", with: "ok")
        try screen.press("save")
        #expect(await eventually { log.messages.count >= 4 })
        #expect(log.messages == ["request:started", "request:validation-failed", "request:started", "request:finished"])
        #expect(log.all.first?.data["command"] == "note.save")
    }
}
