import Foundation
import TrellisCore
import XCTest

/// Deleting a note in the real window: the notes list shows the notice "Deleted “Title” · Undo"
/// over the page; its Undo button, or Ctrl+Z (`win.undo`) once the notice is closed, brings the
/// note back with its id.
final class NoteDeleteUndoWindowTests: XCTestCase {
    func testADeletedNoteComesBackThroughTheNoticeAndThroughCtrlZ() throws {
        let app = try AppDriver(arguments: ["/notes"])
        try app.send("page-action new")
        _ = try app.dump { $0["path"] == "/notes/new" }
        try app.send("field title Покупки")
        try app.send("press save")
        _ = try app.dump { $0["path"] == "/notes" && ($0["rows"]?.arrayValue?.count ?? 0) == 1 }
        try app.send("activate 0")
        let path = try app.dump { $0["buttons"]?["delete"] != nil }["path"]

        try deleteNoteOnScreen(app)
        // The notice is shown when the delete is saved; the list follows the save a moment
        // later, from its worker thread (FetchedResultsController), so both are waited for.
        var screen = try app.dump { $0["path"] == "/notes" && $0["notice"] != .null && $0["count"] == 0 }
        XCTAssertEqual(screen["notice"], ["text": "Deleted “Покупки”", "undo": "Undo"])
        try app.screenshot("note-deleted-notice")
        try app.send("notice-undo")
        screen = try app.dump { ($0["rows"]?.arrayValue?.count ?? 0) == 1 }
        XCTAssertEqual(screen["notice"], .null, "Undo hides the notice")
        XCTAssertEqual(screen["rows"]?[0]?["text"], "Покупки")
        try app.send("activate 0")
        XCTAssertEqual(try app.dump { $0["buttons"]?["delete"] != nil }["path"], path, "the note came back with its id")

        try deleteNoteOnScreen(app)
        _ = try app.dump { $0["path"] == "/notes" && $0["notice"] != .null && $0["count"] == 0 }
        try app.send("notice-close")
        XCTAssertEqual(try app.send("dump")["notice"], .null)
        try app.send("action win.undo")  // Ctrl+Z on the notes list, the notice gone
        screen = try app.dump { ($0["rows"]?.arrayValue?.count ?? 0) == 1 }
        XCTAssertEqual(screen["rows"]?[0]?["text"], "Покупки")
        try app.screenshot("note-undone")
        XCTAssertEqual(app.finish(), 0)
    }

    /// Presses Delete twice in the editor on screen (the first press only asks for the second).
    private func deleteNoteOnScreen(_ app: AppDriver) throws {
        try app.send("press delete")
        _ = try app.dump { $0["message"]?.stringValue?.hasPrefix("Press Delete again") == true }
        try app.send("press delete")
    }
}
