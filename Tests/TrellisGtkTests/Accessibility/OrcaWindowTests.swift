import Foundation
import TrellisCore
import XCTest

/// What Orca 43 (GNOME's screen reader, Debian's `orca`) says as a person drives the window
/// with the keyboard alone: its speech is read from its debug log (``OrcaSession``), the keys are
/// real (xdotool), and where the focus is comes from AT-SPI (``AccessibilityClient``).
final class OrcaWindowTests: XCTestCase {
    /// No GTK class name is ever spoken ("GtkStackPage panel", "GtkListItemWidget", "GtkImage").
    private func assertNoClassNames(_ orca: OrcaSession, file: StaticString = #filePath, line: UInt = #line) {
        let spoken = orca.phrases
        XCTAssertFalse(spoken.isEmpty, file: file, line: line)
        XCTAssertEqual(spoken.filter { $0.contains("Gtk") }, [], "class names spoken", file: file, line: line)
        XCTAssertEqual(spoken.filter { $0.hasPrefix("List with") }, [], "GTK's count of row widgets spoken as the list's size",
                       file: file, line: line)
    }

    func testRowsTheListAButtonAndATablesCellsWithTheirHeadersAreReadByName() throws {
        let app = try AppDriver(path: "/catalog")
        try app.dump { ($0["count"]?.doubleValue ?? 0) > 200 && $0["focusType"] == "GtkListItemWidget" }
        let orca = try OrcaSession()
        let keyboard = try RealInput(windowTitled: "^Catalog$")
        // Orca has found the window and its focus: the first row.
        try orca.waitFor("Любовные романы.")

        orca.mark()
        try keyboard.press("Down")
        var spoken = try orca.waitFor("Фантастика и фэнтези.")
        XCTAssertFalse(spoken.contains("not selected."), "a row of a list without selection is read alone: \(spoken)")

        // Tab leaves the list (one stop of the Tab order): the header bar's first button.
        orca.mark()
        try keyboard.press("Tab")
        try orca.waitFor("Show Sections push button.")
        // Shift+Tab comes back to the row, the list announced by its name and true size.
        orca.mark()
        try keyboard.press("shift+Tab")
        spoken = try orca.waitFor("Фантастика и фэнтези.")
        XCTAssertTrue(spoken.contains("Catalog, rows: 214."), "the list's size is the catalog's, not GTK's 205 row widgets: \(spoken)")
        XCTAssertFalse(spoken.contains { $0.hasPrefix("List with") }, "\(spoken)")

        // People (Alt+5): each row is read by its cells, each after its column's header.
        orca.mark()
        try keyboard.press("alt+5")
        try orca.waitFor("First name Grace, Surname Hopper, Age 85.")
        XCTAssertEqual(try AccessibilityClient(app).find("list", "People, rows: 5")["found"], true, "the table's rows are named by its size")
        orca.mark()
        try keyboard.press("Down")
        try orca.waitFor("First name Ada, Surname Lovelace, Age 36.")
        assertNoClassNames(orca)
        XCTAssertEqual(app.finish(), 0)
    }

    func testAValidationFailureIsSpokenOnItsMarkedFieldAndANoticeIsSpokenWhereTheFocusIs() throws {
        let app = try AppDriver(path: "/notes/new")
        try app.dump { $0["focus"] == "title" }
        let orca = try OrcaSession()
        let keyboard = try RealInput(windowTitled: "^New note$")
        let client = try AccessibilityClient(app)
        try orca.waitFor("Title text.")

        // Ctrl+S without a title: said at once, on the field at fault, which has the focus and is invalid.
        orca.mark()
        try keyboard.press("ctrl+s")
        try orca.waitFor("A note needs a title.")
        let field = try client.focused { $0["name"] == "Title" }
        XCTAssertEqual(field["role"], "text")
        XCTAssertTrue(field["states"]?.arrayValue?.contains("invalid") == true, "the field is marked invalid: \(field)")
        XCTAssertEqual(field["describedBy"], ["A note needs a title."])

        // Saved: the focus is on the note just created, in the list.
        orca.mark()
        try keyboard.type("Groceries")
        try keyboard.press("ctrl+s")
        try orca.waitFor("Groceries.")
        XCTAssertEqual(try client.focused { $0["role"] == "list item" }["name"], "Groceries")

        // Opened, then deleted with Delete pressed twice: the confirmation and the notice are
        // spoken where the focus is, though neither moves it there.
        try keyboard.press("Return")
        try app.dump { $0["path"]?.stringValue?.hasPrefix("/notes/") == true && $0["focus"] == "title" }
        orca.mark()
        try keyboard.press("Tab", "Tab", "Tab", "Tab")
        try orca.waitFor("Delete push button.")
        try keyboard.press("space")
        try orca.waitFor("Press Delete again to delete “Groceries” for good.")
        orca.mark()
        try keyboard.press("space")
        let spoken = try orca.waitFor("Deleted “Groceries”. Undo with Ctrl+Z.")
        XCTAssertFalse(spoken.contains { $0.contains("deleted elsewhere") }, "a delete made here is not news from elsewhere: \(spoken)")
        XCTAssertFalse(spoken.contains { $0.contains("Show Sections") }, "the focus stays on the notes list: \(spoken)")
        try keyboard.press("ctrl+z")
        XCTAssertEqual(try app.dump { $0["path"] == "/notes" && $0["count"] == 1 }["rows"]?[0]?["text"], "Groceries", "Ctrl+Z undid it")
        assertNoClassNames(orca)
        XCTAssertEqual(app.finish(), 0)
    }

    /// The question the Plugins page's Approve button asks is spoken whole when it opens: the
    /// question, what the plugin asks for, and the focused Cancel button.
    func testTheApprovalQuestionIsSpokenWhole() throws {
        let (home, environment) = try PluginApprovalWindowTests.installAsker()
        defer { try? FileManager.default.removeItem(at: home) }
        let app = try AppDriver(arguments: ["/plugins"], environment: environment)
        try app.waitForPlugins()
        try app.dump { $0["actions"] == ["approve:asker"] }
        let orca = try OrcaSession()
        let keyboard = try RealInput(windowTitled: "^Plugins$")
        let client = try AccessibilityClient(app)
        orca.mark()
        try keyboard.click(try client.find("push button", "Approve Asker")["extents"])
        let spoken = try orca.waitFor("Cancel push button.")
        let question = try XCTUnwrap(spoken.first { $0.hasPrefix("Let “Asker” run? dialog") }, "the question was not spoken: \(spoken)")
        XCTAssertTrue(question.contains("asks to:\n• read \(home.path)/shared-notes\n"), "what the plugin asks for was not spoken: \(question)")
        XCTAssertTrue(question.hasSuffix("Approve only a plugin you trust. You can disable it on this page at any time."), question)
        assertNoClassNames(orca)
        XCTAssertEqual(app.finish(), 0)
    }
}
