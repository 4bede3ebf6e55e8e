import Foundation
import TrellisCore
import XCTest

/// The window driven by the keyboard alone (real keys, xdotool), with the focus read as a
/// screen reader reads it (AT-SPI): the shortcuts window, a list as one stop of the Tab order,
/// typing searching only in a list, no filter left hidden, the sidebar's highlight and F9.
final class KeyboardWindowTests: XCTestCase {
    func testCtrlQuestionMarkAndF1ShowTheShortcutsAndEscapeClosesThem() throws {
        let app = try AppDriver(path: "/catalog")
        try app.dump { $0["focusType"] == "GtkListItemWidget" }
        let keyboard = try RealInput(windowTitled: "^Catalog$")
        let client = try AccessibilityClient(app)
        XCTAssertEqual(try app.send("accels win.shortcuts")["accels"], ["<Control>question", "F1"])
        for keys in [["ctrl+question"], ["F1"]] {
            try keyboard.press(keys[0])
            try app.dump { $0["dialogs"] == ["Keyboard Shortcuts"] }
            // Every action with keys is listed, from the menu, beside the keys of lists and the window.
            for title in ["New note", "Back", "Catalog", "Undo", "Preferences", "Leave the list", "Show or hide the sections"] {
                XCTAssertEqual(try client.find("label", title, within: "Keyboard Shortcuts")["found"], true, "\(title) in the shortcuts window")
            }
            XCTAssertEqual(try client.classNames(), [], "a screen reader would read these GTK class names")
            try RealInput(windowTitled: "^Keyboard Shortcuts$").press("Escape")
            try app.dump { $0["dialogs"] == [] }
        }
        XCTAssertEqual(app.finish(), 0)
    }

    func testAListIsOneTabStopTypingSearchesOnlyThereAndBackLeavesNoFilter() throws {
        let app = try AppDriver(path: "/catalog")
        try app.dump { $0["focusType"] == "GtkListItemWidget" }
        let keyboard = try RealInput(windowTitled: "^Catalog$")
        let client = try AccessibilityClient(app)
        try keyboard.press("Down")
        try client.focused { $0["name"] == "Фантастика и фэнтези" }
        // Tab leaves the list at once (not 214 stops), Shift+Tab comes back to the same row.
        try keyboard.press("Tab")
        XCTAssertEqual(try client.focused { $0["role"] != "list item" }["name"], "Show Sections")
        // Typing on a button searches nothing.
        try keyboard.type("x")
        XCTAssertEqual(try app.send("dump")["searchActive"], false, "typing on a header button opened the search")
        try keyboard.press("shift+Tab")
        XCTAssertEqual(try client.focused { $0["role"] == "list item" }["name"], "Фантастика и фэнтези")

        // Typing in the list searches it; Back (Alt+Left) closes the search and its filter.
        try keyboard.type("z")
        var screen = try app.dump { $0["searchActive"] == true && $0["count"] == 0 }
        XCTAssertEqual(screen["search"], "z")
        try keyboard.press("alt+Left")
        screen = try app.dump { $0["searchActive"] == false && $0["count"] == 214 }
        XCTAssertEqual(screen["search"], "", "no filter stays behind a hidden search bar")
        XCTAssertEqual(screen["path"], "/catalog", "Back first closed the search")
        XCTAssertEqual(app.finish(), 0)
    }

    func testTheSidebarsHighlightStaysWithThePageAndF9FocusesTheCurrentSection() throws {
        let app = try AppDriver(path: "/people")
        try app.dump { $0["focusType"] == "GtkListItemWidget" }
        let keyboard = try RealInput(windowTitled: "^People$")
        let client = try AccessibilityClient(app)
        func highlighted() throws -> String? {
            try app.send("sidebar")["rows"]?.arrayValue?.first { $0["selected"] == true }?["title"]?.stringValue
        }
        try keyboard.press("shift+Tab")
        XCTAssertEqual(try client.focused { $0["role"] == "list item" && $0["name"] != "First name Grace, Surname Hopper, Age 85" }["name"],
                       "People", "the keyboard enters the sidebar on the current section")
        try keyboard.press("Up", "Up")
        try client.focused { $0["name"] == "Notes" }
        XCTAssertEqual(try highlighted(), "People", "moving the focus does not move the highlight off the page on screen")
        try keyboard.press("Return")
        try app.dump { $0["path"] == "/notes" }
        XCTAssertEqual(try highlighted(), "Notes")

        // F9 hides the sidebar (the focus goes back to the page), F9 shows it with the focus on it.
        try keyboard.press("F9")
        try app.send("sidebar", until: { $0["shown"] == false })
        try keyboard.press("F9")
        try app.send("sidebar", until: { $0["shown"] == true })
        XCTAssertEqual(try client.focused { $0["role"] == "list item" && $0["name"] == "Notes" }["name"], "Notes")
        XCTAssertEqual(app.finish(), 0)
    }
}
