import Foundation
import Testing
@testable import TrellisStore

@Suite("Undo and redo")
struct UndoTests {
    @Test("each change outside a group is one undo step; redo re-applies it")
    func singleSteps() throws {
        let fixture = try StoreFixture()
        let context = fixture.store.newContext()
        let note = try StoreFixture.insertNote(context, title: "One")
        try context.save()
        note["title"] = "Two"
        note["title"] = "Three"
        context.undo()
        #expect(note["title"] == "Two")
        context.undo()
        #expect(note["title"] == "One" && !context.hasChanges)
        context.redo()
        context.redo()
        #expect(note["title"] == "Three" && !context.canRedo)
    }

    @Test("a group is undone and redone as a whole, with its name")
    func groups() throws {
        let fixture = try StoreFixture()
        let context = fixture.store.newContext()
        let note = try context.undoGroup(named: "Add note") { () throws -> ManagedObject in
            let note = try context.insert("Note")
            note["title"] = "New"
            note["created"] = .date(Date())
            note["updated"] = .date(Date())
            return note
        }
        #expect(context.undoActionName == "Add note")
        context.undo()
        #expect(!note.isInserted && !context.hasChanges)
        #expect(context.redoActionName == "Add note")
        context.redo()
        #expect(note.isInserted && note["title"] == "New")
        try context.save()
        #expect(try context.count(for: FetchRequest(entityName: "Note")) == 1)
    }

    @Test("undoing a deletion restores the object with its id and values")
    func undoDelete() throws {
        let fixture = try StoreFixture()
        let context = fixture.store.newContext()
        let note = try StoreFixture.insertNote(context, title: "Keep me")
        try context.save()
        try context.delete(note)
        #expect(note.isDeleted)
        context.undo()
        #expect(!note.isDeleted && !context.hasChanges)
        context.redo()
        try context.save()
        #expect(try context.object(with: note.objectID) == nil)
        context.undo()
        #expect(note.isInserted, "undoing a saved deletion inserts the object again")
        try context.save()
        #expect(try fixture.store.newContext().object(with: note.objectID)?["title"] == "Keep me")
    }

    @Test("a new change clears what could be redone, and undo closes an open group")
    func redoCleared() throws {
        let fixture = try StoreFixture()
        let context = fixture.store.newContext()
        let note = try StoreFixture.insertNote(context, title: "A")
        note["title"] = "B"
        context.undo()
        #expect(context.canRedo)
        note["body"] = "text"
        #expect(!context.canRedo)
        context.beginUndoGroup(named: "Edit")
        note["title"] = "C"
        note["body"] = "more"
        context.undo()
        #expect(note["title"] == "A" && note["body"] == "text")
    }

    @Test("undo history is bounded by levelsOfUndo and off in background contexts")
    func limits() async throws {
        let fixture = try StoreFixture()
        let context = fixture.store.newContext()
        context.levelsOfUndo = 3
        let note = try StoreFixture.insertNote(context, title: "0")
        for number in 1...10 { note["title"] = .string(String(number)) }
        for _ in 0..<10 { context.undo() }
        #expect(note["title"] == "7")
        let canUndo = try await fixture.store.newBackgroundContext().perform { context in
            try StoreFixture.insertNote(context, title: "x")
            return context.canUndo
        }
        #expect(!canUndo)
    }
}
