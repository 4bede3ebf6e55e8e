import Foundation
import TrellisCore
import XCTest

/// The notes flow in the real window: the front controller's validation message (gone as the
/// field at fault is edited), the live list, undo with Ctrl+Z, persistence across launches.
final class NotesWindowTests: XCTestCase {
    func testInvalidInputShowsAMessageAndASavedNoteAppearsInTheList() throws {
        let app = try AppDriver(arguments: ["/notes"])
        var screen = try app.send("dump")
        XCTAssertEqual(screen["actions"], ["new"])
        XCTAssertEqual(screen["count"], 0)
        XCTAssertEqual(screen["placeholder"], "No notes yet. Press + or Ctrl+N to write one.")
        try app.screenshot("notes-empty")
        try app.send("page-action new")
        XCTAssertEqual(try app.send("dump")["path"], "/notes/new")
        try app.send("field body no title here")
        try app.send("press save")
        screen = try app.dump { $0["message"]?.stringValue != nil }
        XCTAssertEqual(screen["message"], "A note needs a title.")
        XCTAssertEqual(screen["path"], "/notes/new")
        let errorRed = TextContrast.Colour(red: 0xcc, green: 0, blue: 0)  // GTK 4.8's default @error_color
        XCTAssertGreaterThan(try TextContrast(png: app.screenshot("note-invalid")).pixelCount(near: errorRed), 500,
                             "the title field outlined and the message marked in the error colour")
        // Putting the field right takes the message and the outline away at once.
        try app.send("field title Список дел")
        screen = try app.dump { $0["message"] == .null }
        XCTAssertEqual(screen["path"], "/notes/new")
        XCTAssertEqual(try TextContrast(png: app.screenshot("note-corrected")).pixelCount(near: errorRed), 0,
                       "nothing is drawn in the error colour once the title is typed")
        try app.send("press save")
        screen = try app.dump { $0["path"] == "/notes" && ($0["rows"]?.arrayValue?.count ?? 0) == 1 }
        XCTAssertEqual(screen["rows"]?[0]?["text"], "Список дел · no title here")
        XCTAssertEqual(screen["message"], .null)
        XCTAssertEqual(screen["placeholder"], .null, "the placeholder goes once the list has a row")
        try app.screenshot("notes")
        try app.send("search nothing like this")
        screen = try app.dump { $0["count"] == 0 }
        XCTAssertEqual(screen["placeholder"], "Nothing matches “nothing like this”.")
        try app.send("search")
        screen = try app.dump { $0["count"] == 1 }
        XCTAssertEqual(screen["placeholder"], .null)
        XCTAssertEqual(app.finish(), 0)

        let again = try AppDriver(arguments: ["/notes"], environment: ["XDG_DATA_HOME": app.home.appendingPathComponent("data").path])
        let reopened = try again.dump { ($0["rows"]?.arrayValue?.count ?? 0) == 1 }
        XCTAssertEqual(reopened["rows"]?[0]?["text"], "Список дел · no title here", "the note persisted across launches")
        XCTAssertEqual(again.finish(), 0)
    }

    func testEnterMovesToTheTextCtrlSSavesAndDeleteLooksDestructive() throws {
        let app = try AppDriver(arguments: ["/notes"])
        XCTAssertEqual(try app.send("accels win.save")["accels"], ["<Control>s"])
        try app.send("page-action new")
        _ = try app.dump { $0["path"] == "/notes/new" }
        try app.send("field title Ctrl+S")
        try app.send("enter title")  // Enter in the title moves on to the text
        XCTAssertEqual(try app.dump { $0["focus"] == "body" }["focus"], "body")
        try app.send("action win.save")  // what Ctrl+S does
        let list = try app.dump { $0["path"] == "/notes" && ($0["rows"]?.arrayValue?.count ?? 0) == 1 }
        XCTAssertEqual(list["rows"]?[0]?["text"], "Ctrl+S")
        try app.send("activate 0")
        let editor = try app.dump { $0["buttons"]?["delete"] != nil }
        XCTAssertEqual(editor["buttons"]?["save"], ["suggested-action"])
        XCTAssertEqual(editor["buttons"]?["delete"], ["destructive-action"])
        XCTAssertEqual(editor["buttons"]?["discard"], [])
        try app.screenshot("note-editor")
        XCTAssertEqual(app.finish(), 0)
    }

    func testTheNotesPagesAreInRussianUnderLanguageRu() throws {
        let locale = try CommandRunner.compileTranslations()
        defer { try? FileManager.default.removeItem(at: locale) }
        let app = try AppDriver(arguments: ["/notes"], environment: ["LANGUAGE": "ru", "TRELLIS_LOCALE_DIR": locale.path])
        let screen = try app.send("dump")
        XCTAssertEqual(screen["title"], "Заметки")
        XCTAssertEqual(screen["placeholder"], "Заметок пока нет. Нажмите + или Ctrl+N, чтобы написать первую.")
        try app.send("page-action new")
        let editor = try app.dump { $0["path"] == "/notes/new" }
        XCTAssertEqual(editor["title"], "Новая заметка")
        try app.send("press save")
        let refused = try app.dump { $0["message"]?.stringValue != nil }
        XCTAssertEqual(refused["message"], "У заметки должен быть заголовок.")
        // The item's title is translated; its text is the Location plugin's own ("m", not "м").
        let located = try app.dump(until: { $0["status"]?.stringValue?.hasPrefix("Местоположение: ") == true }, timeout: 15)
        XCTAssertNotNil(located["status"]?.stringValue?.range(of: #"^Местоположение: -?\d+\.\d{5}, -?\d+\.\d{5} ±\d+ m$"#, options: .regularExpression),
                        "\(located["status"] ?? .null)")
        try app.screenshot("notes-ru")
        XCTAssertEqual(app.finish(), 0)
    }

    func testCtrlZUndoesTheLastUnsavedChange() throws {
        let app = try AppDriver(arguments: ["/notes/new"])
        XCTAssertEqual(try app.send("accels win.undo")["accels"], ["<Control>z"])
        XCTAssertEqual(try app.send("accels win.redo")["accels"], ["<Shift><Control>z"], "GTK normalises the modifier order")
        try app.send("field title Черновик")
        try app.send("field body первая строка")
        try app.send("action win.undo")
        XCTAssertEqual(try app.send("dump")["fields"], ["title": "Черновик", "body": ""])
        try app.send("action win.undo")
        XCTAssertEqual(try app.send("dump")["fields"], ["title": "", "body": ""])
        try app.send("action win.redo")
        XCTAssertEqual(try app.send("dump")["fields"], ["title": "Черновик", "body": ""])
        XCTAssertEqual(app.finish(), 0)
    }
}
