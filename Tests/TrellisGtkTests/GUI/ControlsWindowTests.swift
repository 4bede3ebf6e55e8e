import Foundation
import TrellisCore
import XCTest

/// Every control of the window used as a person uses it: found where a screen reader finds it
/// (AT-SPI), clicked with the real pointer (xdotool), and each time the app is still up and
/// the change has taken effect. The header bar's buttons, the menu, a row of each kind of list,
/// the buttons of the pages (the notes' Sync, Conflicts and Trash and Sync's "Sync now" with a
/// server, and folded into the menu at 360 px), the conflicts' and the Trash's rows and
/// buttons, the notice's Undo and close, About's license and credits; and on
/// every page visited, no node named after a GTK class. (Preferences' fields:
/// `PreferencesWindowTests`; the keyboard: `KeyboardWindowTests`.)
final class ControlsWindowTests: XCTestCase {
    /// Clicks the node `role` named `name` with the real pointer.
    private func click(_ role: String, _ name: String, _ client: AccessibilityClient, _ input: RealInput,
                       file: StaticString = #filePath, line: UInt = #line) throws {
        let node = try client.find(role, name, until: { $0["found"] == true && ($0["extents"]?[2]?.doubleValue ?? 0) > 0 },
                                   file: file, line: line)
        try input.click(node["extents"], file: file, line: line)
    }

    /// Chooses the primary menu's item `name`: the menu opened with the pointer, the item with
    /// its AT-SPI action (a popover's coordinates are not the window's).
    private func choose(_ name: String, _ client: AccessibilityClient, _ input: RealInput,
                        file: StaticString = #filePath, line: UInt = #line) throws {
        try click("push button", "Main menu", client, input, file: file, line: line)
        try client.find("menu item", name, until: { $0["found"] == true }, file: file, line: line)
        try client.perform("click", on: "menu item", named: name, file: file, line: line)
    }

    /// No node of the window is named after a GTK class.
    private func assertNoClassNames(_ client: AccessibilityClient, _ page: String, file: StaticString = #filePath, line: UInt = #line) throws {
        XCTAssertEqual(try client.classNames(file: file, line: line), [], "\(page)", file: file, line: line)
    }

    func testEveryHeaderBarControlAndTheMenu() throws {
        let app = try AppDriver(path: "/notes")
        try app.waitForPlugins()
        let input = try RealInput(windowTitled: "^Notes$")
        let client = try AccessibilityClient(app)
        try assertNoClassNames(client, "/notes")

        try click("push button", "Show Sections", client, input)
        try app.send("sidebar", until: { $0["shown"] == false })
        try click("push button", "Show Sections", client, input)
        try app.send("sidebar", until: { $0["shown"] == true })

        try click("push button", "Search", client, input)
        try app.dump { $0["searchActive"] == true }
        try click("push button", "Close search", client, input)
        try app.dump { $0["searchActive"] == false }

        try click("push button", "New note", client, input)
        try app.dump { $0["path"] == "/notes/new" }
        try assertNoClassNames(client, "/notes/new")
        try click("push button", "Back", client, input)
        try app.dump { $0["path"] == "/notes" }

        try choose("Preferences", client, input)
        try app.dump { $0["path"] == "/settings" }
        try assertNoClassNames(client, "/settings")
        XCTAssertEqual(app.finish(), 0)
    }

    func testTheRowsAndButtonsOfThePages() throws {
        let app = try AppDriver(path: "/catalog")
        try app.waitForPlugins()
        try app.send("resize 900 780")
        let input = try RealInput(windowTitled: "^Catalog$")
        let client = try AccessibilityClient(app)

        // A row of a list opens its page; the page's button does what it says.
        try click("list item", "Фэнтези", client, input)
        try app.dump { $0["path"] == "/catalog/5" }
        try assertNoClassNames(client, "/catalog/5")
        try click("push button", "Add to favourites", client, input)
        try app.dump { $0["buttonLabels"]?["favourite"] == "Remove from favourites" }

        // A checklist's row unticks with a click; the page's header button opens its other page.
        try app.send("go /favourites")
        try app.dump { $0["rows"]?[0]?["text"] == "Фэнтези" && $0["rows"]?[0]?["checkbox"] == true }
        try assertNoClassNames(client, "/favourites")
        try click("list item", "Фэнтези", client, input)
        try app.dump { $0["rows"]?[0]?["checkbox"] == false }
        try click("push button", "Add favourites", client, input)
        try app.dump { $0["path"] == "/favourites/add" }
        try assertNoClassNames(client, "/favourites/add")

        // A table's column header sorts it.
        try app.send("go /people")
        try app.dump { $0["columns"] == ["First name", "Surname", "Age"] }
        try assertNoClassNames(client, "/people")
        try click("filler", "Age", client, input)
        XCTAssertEqual(try app.dump { $0["sort"]?["column"] == "Age" }["cells"]?[0]?[2], "36", "the youngest first")

        // A plugin's check box turns it off, and on again.
        try app.send("go /plugins")
        let template = try client.find("check box", containing: "Template", until: { $0["found"] == true })
        try assertNoClassNames(client, "/plugins")
        try input.click(template["extents"])
        try app.dump { $0["rows"]?.arrayValue?.first { $0["text"]?.stringValue?.hasPrefix("Template") == true }?["checkbox"] == false }
        try input.click(try client.find("check box", containing: "Template")["extents"])
        try app.dump { $0["rows"]?.arrayValue?.first { $0["text"]?.stringValue?.hasPrefix("Template · 0.1.0 · loaded") == true } != nil }

        // A plugin's page action: the Location history's Clear.
        // The plugin adds an update every 2 s, so the list may have a new row by the time it is
        // looked at again: what must be gone is every row from before the Clear.
        try app.send("go /location")
        let before = try app.dump { ($0["count"]?.intValue ?? 0) > 0 }
        let old = Set(before["rows"]?.arrayValue?.compactMap { $0["text"]?.stringValue } ?? [])
        try assertNoClassNames(client, "/location")
        try click("push button", "Clear", client, input)
        try app.dump { screen in !(screen["rows"]?.arrayValue ?? []).contains { old.contains($0["text"]?.stringValue ?? "") } }

        // An editor's Discard changes.
        try app.send("go /notes/new")
        try app.dump { $0["focus"] == "title" }
        try input.type("Draft")
        try app.dump { $0["fields"]?["title"] == "Draft" }
        try click("push button", "Discard changes", client, input)
        try app.dump { $0["fields"]?["title"] == "" }
        XCTAssertEqual(app.finish(), 0)
    }

    /// With a server (Python's `http.server`, which answers no POST), the notes page's Sync,
    /// Conflicts and Trash buttons open their pages, and Sync's "Sync now" makes a pass: the note
    /// waiting for the server counts one attempt more each time, with the server's refusal.
    func testTheSyncButtonsWithAServer() throws {
        let work = FileManager.default.temporaryDirectory.appendingPathComponent("trellis-sync-controls-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: work) }
        let server = try StaticHTTPServer(serving: try StaticHTTPServer.emptyNotes(in: work))
        let app = try AppDriver(arguments: ["--server", server.url], path: "/notes/new")
        try app.waitForPlugins()
        let input = try RealInput(windowTitled: "^New note$")
        let client = try AccessibilityClient(app)
        try input.type("Groceries")
        try click("push button", "Save", client, input)
        try app.dump { $0["path"] == "/notes" && $0["count"] == 1 }
        for (button, path) in [("Conflicts", "/conflicts"), ("Trash", "/trash"), ("Sync", "/sync")] {
            try click("push button", button, client, input)
            try app.dump { $0["path"]?.stringValue == path }
            try assertNoClassNames(client, path)
            if path != "/sync" { try click("push button", "Back", client, input); try app.dump { $0["path"] == "/notes" } }
        }
        func attempts(_ screen: JSONValue) -> Int? {
            guard let waiting = screen["fields"]?["waiting"]?.stringValue, waiting.hasPrefix("create \"Groceries\" ("),
                  let count = waiting.split(separator: "(").dropFirst().first?.split(separator: " ").first else { return nil }
            return Int(count)
        }
        var before = 0
        for _ in 0..<2 {
            try click("push button", "Sync now", client, input)
            let screen = try app.dump(until: { attempts($0).map { $0 > before } ?? false })
            before = attempts(screen) ?? before
            XCTAssertEqual(screen["fields"]?["state"], "Sync failed: the server answered HTTP 501; 1 change waiting", "\(screen)")
        }
        let size = try app.send("dump")
        XCTAssertEqual(try AppearanceWindowTests.photograph(app, "/sync (failed)", size: (size["width"]?.intValue ?? 0, size["height"]?.intValue ?? 0),
                                                            theme: "light"), [], "every text readable")
        // The long status line ("Sync failed: … · Location: …") wraps: the window still narrows to 360 px.
        for _ in 0..<2 { try app.send("resize 360 640"); try app.send("dump") }
        let narrow = try app.dump { ($0["width"]?.intValue ?? .max) <= 360 }
        XCTAssertTrue(narrow["status"]?.stringValue?.hasPrefix("Sync failed: the server answered HTTP 501") == true, "\(narrow)")
        XCTAssertEqual(try AppearanceWindowTests.photograph(app, "/sync (failed)", size: (360, 640), theme: "light"), [])
        XCTAssertEqual(app.finish(), 0)
        withExtendedLifetime(server) {}  // serving until the app has quit
    }

    /// With a server that takes writes (json-server-py), a conflict's and a trashed note's rows
    /// open their pages, whose buttons do what they say: "Open your version", "Dismiss",
    /// "Restore" — all with real clicks.
    func testTheConflictsAndTrashRowsWithAServer() throws {
        let work = FileManager.default.temporaryDirectory.appendingPathComponent("trellis-sync-rows-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: work) }
        let server = try JSONServerPy(in: work)
        let app = try AppDriver(arguments: ["--server", server.url], path: "/notes")
        try app.waitForPlugins()
        let input = try RealInput(windowTitled: "^Notes$")
        let client = try AccessibilityClient(app)
        /// A pass of the sync, from the sync page's "Sync now", ended.
        func syncNow() throws {
            try app.send("go /sync")
            try app.send("press retry")
            try app.dump { $0["message"] == .null }
            try app.send("back")
        }
        for (title, body) in [("Plan", "v1"), ("Old", "still wanted")] {
            try app.send("go /notes/new")
            try app.send("field title \(title)")
            try app.send("field body \(body)")
            try app.send("press save")
            try app.dump { $0["path"] == "/notes" }
        }
        try syncNow()
        try syncNow()  // a later pull sees the creates kept
        let notes = try XCTUnwrap(try server.request("GET", "/notes").arrayValue)
        let id = { (title: String) in notes.first { $0["title"]?.stringValue == title }?["id"]?.stringValue }
        let plan = try XCTUnwrap(id("Plan"), "\(notes)"), old = try XCTUnwrap(id("Old"), "\(notes)")
        // Another client changes Plan and deletes Old; here Plan is changed too.
        try server.request("PATCH", "/notes/\(plan)", ["body": "theirs"])
        try server.request("DELETE", "/notes/\(old)")
        let row = try XCTUnwrap(try app.send("dump")["rows"]?.arrayValue?.firstIndex { $0["text"]?.stringValue?.hasPrefix("Plan") == true })
        try app.send("activate \(row)")
        try app.dump { $0["fields"]?["body"] == "v1" }
        try app.send("field body mine")
        try app.send("press save")
        try app.dump { $0["path"] == "/notes" }
        try syncNow()
        try app.dump { $0["status"]?.stringValue?.contains("1 conflict to review") == true }

        try click("push button", "Conflicts", client, input)
        try app.dump { $0["path"] == "/conflicts" && $0["count"] == 1 }
        try click("list item", try XCTUnwrap(try app.send("dump")["rows"]?[0]?["text"]?.stringValue), client, input)
        let conflict = try app.dump { $0["path"]?.stringValue?.hasPrefix("/conflicts/") == true }
        XCTAssertEqual(conflict["fields"]?["server"], "Plan\ntheirs")
        XCTAssertEqual(conflict["fields"]?["copy"], "Plan (conflict copy)\nmine")
        try assertNoClassNames(client, "a conflict")
        try click("push button", "Open your version", client, input)
        try app.dump { $0["fields"]?["body"] == "mine" }
        try click("push button", "Back", client, input)
        try click("push button", "Dismiss", client, input)
        try app.dump { $0["path"] == "/conflicts" && $0["count"] == 0 }
        try click("push button", "Back", client, input)

        try click("push button", "Trash", client, input)
        let trash = try app.dump { $0["path"] == "/trash" && $0["count"] == 1 }
        let trashed = try XCTUnwrap(trash["rows"]?[0]?["text"]?.stringValue)
        XCTAssertTrue(trashed.hasPrefix("Old | "), trashed)
        try click("list item", trashed, client, input)
        try app.dump { $0["fields"]?["body"] == "still wanted" }
        try assertNoClassNames(client, "a trashed note")
        try click("push button", "Restore", client, input)
        try app.dump { $0["path"] == "/trash" && $0["count"] == 0 }
        try click("push button", "Back", client, input)
        try app.dump { $0["path"] == "/notes" && $0["rows"]?.arrayValue?.contains { $0["text"]?.stringValue?.hasPrefix("Old") == true } == true }
        XCTAssertEqual(app.finish(), 0)
        withExtendedLifetime(server) {}  // serving until the app has quit
    }

    /// At 360 pixels the page's buttons leave the header bar for the top of the menu, where
    /// they work as the buttons did; wide again, they come back. (The notes page with a server
    /// has the most: New note, Sync, Conflicts, Trash, and the search toggle.)
    func testANarrowWindowFoldsThePagesButtonsIntoTheMenu() throws {
        let work = FileManager.default.temporaryDirectory.appendingPathComponent("trellis-narrow-controls-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: work) }
        let server = try StaticHTTPServer(serving: try StaticHTTPServer.emptyNotes(in: work))
        let app = try AppDriver(arguments: ["--server", server.url], path: "/notes")
        try app.waitForPlugins()
        let input = try RealInput(windowTitled: "^Notes$")
        let client = try AccessibilityClient(app)
        let pageItems = ["New note", "Sync", "Conflicts", "Trash"]
        /// The menu's items for the page's buttons.
        func menuLabels() throws -> [String] {
            try XCTUnwrap(try app.send("menu")["items"]?.arrayValue)
                .filter { $0["action"] == "win.page-action" }.compactMap { $0["label"]?.stringValue }
        }
        XCTAssertEqual(try menuLabels(), [], "wide, the page's buttons are in the header bar")
        for _ in 0..<2 { try app.send("resize 360 640"); try app.send("dump") }
        XCTAssertLessThanOrEqual(try app.dump { ($0["width"]?.intValue ?? .max) <= 360 }["width"]?.intValue ?? .max, 360)
        XCTAssertEqual(try menuLabels(), pageItems, "narrow, they are in the menu")
        try client.find("push button", "Sync", until: { $0["found"] == false || $0["extents"]?[2] == 0 })  // out of the header bar
        try assertNoClassNames(client, "/notes at 360 px")

        for (item, path) in [("Sync", "/sync"), ("New note", "/notes/new")] {
            try choose(item, client, input)
            try app.dump { $0["path"]?.stringValue == path }
            try app.send("back")
            try app.dump { $0["path"] == "/notes" }
        }
        try choose("Search", client, input)
        try app.dump { $0["searchActive"] == true }
        try input.press("Escape")
        try app.dump { $0["searchActive"] == false }

        try app.send("resize 1280 800")
        try app.dump { ($0["width"]?.intValue ?? 0) > 1000 }
        try client.find("push button", "Sync", until: { $0["found"] == true && ($0["extents"]?[2]?.doubleValue ?? 0) > 0 })
        XCTAssertEqual(try menuLabels(), [], "wide again, the buttons are back")
        XCTAssertEqual(app.finish(), 0)
        withExtendedLifetime(server) {}  // serving until the app has quit
    }

    func testTheNoticesUndoAndCloseAndAboutsLicenseAndCredits() throws {
        let app = try AppDriver(path: "/notes/new")
        try app.waitForPlugins()
        let input = try RealInput(windowTitled: "^New note$")
        let client = try AccessibilityClient(app)
        try input.type("Groceries")
        try click("push button", "Save", client, input)
        try app.dump { $0["path"] == "/notes" && $0["count"] == 1 }
        for button in ["Undo", "Close notice"] {
            try click("list item", "Groceries", client, input)
            try app.dump { $0["buttons"]?["delete"] != nil }
            try click("push button", "Delete", client, input)
            try app.dump { $0["message"]?.stringValue?.hasPrefix("Press Delete again") == true }  // laid out again
            try click("push button", "Delete", client, input)
            try app.dump { $0["notice"]?["text"] == "Deleted “Groceries”" && $0["count"] == 0 }
            try assertNoClassNames(client, "/notes with a notice")
            try click("push button", button, client, input)
            try app.dump { $0["notice"] == .null }
        }
        XCTAssertEqual(try app.send("dump")["count"], 0, "closed, the notice left the note deleted")

        try choose("About Trellis", client, input)
        try app.dump { $0["dialogs"] == ["About Trellis"] }
        XCTAssertEqual(try client.find("label", containing: "MIT License", within: "About Trellis")["found"], true, "the license is named")
        try click("page tab", "Credits", client, input)
        XCTAssertEqual(try client.find("label", containing: "GRDB.swift", within: "About Trellis", until: { $0["found"] == true })["found"], true)
        XCTAssertEqual(try client.find("label", containing: "QuickConnect", within: "About Trellis")["found"], true)
        try assertNoClassNames(client, "About")
        XCTAssertEqual(app.finish(), 0)
    }
}
