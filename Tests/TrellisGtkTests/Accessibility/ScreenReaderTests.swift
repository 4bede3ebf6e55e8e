import Foundation
import TrellisCore
import XCTest

/// The window as a screen reader finds it: a real AT-SPI client (pyatspi, the library Orca is
/// built on) walks the running app's accessibility tree over the accessibility bus.
final class ScreenReaderTests: XCTestCase {
    /// The interactive nodes of the app, the unnamed ones and the alerts showing, as the AT-SPI
    /// client reports them.
    private func accessibleNodes(of app: AppDriver) throws -> (all: [JSONValue], unnamed: [JSONValue], alerts: [JSONValue]) {
        let script = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("atspi-names.py")
        let result = try CommandRunner.run(URL(fileURLWithPath: "/usr/bin/python3"), [script.path, "\(app.process.processIdentifier)"])
        XCTAssertEqual(result.status, 0, result.stdout + result.stderr)
        let report = try JSONValue(jsonString: result.stdout)
        return (report["interactive"]?.arrayValue ?? [], report["unnamed"]?.arrayValue ?? [], report["alerts"]?.arrayValue ?? [])
    }

    /// Performs AT-SPI action `action` of the node `role` named `name`, as a screen reader does.
    private func perform(_ action: String, on role: String, named name: String, in app: AppDriver) throws {
        let script = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("atspi-names.py")
        let result = try CommandRunner.run(URL(fileURLWithPath: "/usr/bin/python3"),
                                           [script.path, "\(app.process.processIdentifier)", "--do", role, name, action])
        XCTAssertEqual(result.status, 0, result.stdout + result.stderr)
        XCTAssertEqual(try JSONValue(jsonString: result.stdout)["done"], true, "\(action) on \(role) “\(name)”: \(result.stdout)")
    }

    func testARowOpensAndAButtonPressesThroughATSPI() throws {
        let app = try AppDriver(path: "/catalog")
        try app.dump { ($0["count"]?.doubleValue ?? 0) > 100 }
        try perform("row.activate", on: "list item", named: "Фэнтези", in: app)
        try app.dump { $0["path"] == "/catalog/5" }
        try perform("click", on: "push button", named: "Add to favourites", in: app)
        try app.dump { $0["buttonLabels"]?["favourite"] == "Remove from favourites" }
        try app.send("navigate /favourites")
        XCTAssertEqual(try app.dump { $0["count"] == 1 }["rows"]?[0]?["text"], "Фэнтези", "the button was pressed")
        try app.send("page-action add")
        try app.dump { $0["path"] == "/favourites/add" }
        // The catalog below has a row of that name too: only the page on top is read.
        try perform("row.activate", on: "list item", named: "Любовные романы", in: app)
        XCTAssertEqual(try app.dump { $0["rows"]?[0]?["checkbox"] == true }["rows"]?[0]?["checkbox"], true,
                       "a checklist's row ticks through AT-SPI as with a click")
        XCTAssertEqual(app.finish(), 0)
    }

    /// A row the table selects (drawn tinted) is "selected" to a screen reader and the others
    /// "not selected", in a table with columns (People) and in a list (Notes), cells included;
    /// with nothing selected every row is "selected", as GTK has it, so that Orca does not say
    /// "not selected" after each (it does after any row without that state).
    func testARowTheTableSelectsIsTheOneSelectedToAScreenReader() throws {
        let app = try AppDriver(path: "/people")
        try app.dump { ($0["count"]?.doubleValue ?? 0) == 5 }
        let client = try AccessibilityClient(app)
        func states(_ node: JSONValue) -> Set<String> { Set(node["states"]?.arrayValue?.compactMap(\.stringValue) ?? []) }
        let selected: Set<String> = ["selectable", "selected"]
        func isSelected(_ node: JSONValue) -> Bool { states(node).isSuperset(of: selected) }
        func isNotSelected(_ node: JSONValue) -> Bool { states(node).contains("selectable") && !states(node).contains("selected") }

        XCTAssertTrue(isSelected(try client.find("table row", containing: "Lovelace", within: "People") { $0["found"] == true }),
                      "nothing selected: every row as GTK has it")
        let rows = try app.dump { _ in true }["rows"]?.arrayValue ?? []
        let ada = try XCTUnwrap(rows.firstIndex { $0["text"]?.stringValue?.contains("Lovelace") == true })
        try app.send("select \(ada)")
        XCTAssertTrue(isSelected(try client.find("table row", containing: "Lovelace", within: "People", until: isSelected)))
        XCTAssertTrue(isSelected(try client.find("table cell", "Lovelace", within: "People", until: isSelected)), "its cell")
        let grace = try client.find("table row", containing: "Hopper", within: "People", until: isNotSelected)
        XCTAssertTrue(isNotSelected(grace), "\(grace)")
        XCTAssertTrue(isNotSelected(try client.find("table cell", "Hopper", within: "People", until: isNotSelected)), "its cell")
        // Rows shown again after a search get new row widgets, which GTK calls selected once
        // more after binding them: each says what the table says.
        try app.send("search Hopper")
        try app.dump { $0["count"] == 1 }
        try app.send("search")
        try app.dump { $0["count"] == 5 }
        XCTAssertTrue(isNotSelected(try client.find("table row", containing: "Толстой", within: "People", until: isNotSelected)))
        XCTAssertTrue(isSelected(try client.find("table row", containing: "Lovelace", within: "People", until: isSelected)))
        // The selection cleared while a search hides the selected row: no row shown changed,
        // and yet each now says what GTK has, every row selected, not "not selected".
        try app.send("search Hopper")
        try app.dump { $0["count"] == 1 }
        XCTAssertTrue(isNotSelected(try client.find("table row", containing: "Hopper", within: "People", until: isNotSelected)))
        try app.send("select none")
        XCTAssertTrue(isSelected(try client.find("table row", containing: "Hopper", within: "People", until: isSelected)),
                      "the selection cleared: every row as GTK has it again")
        try app.send("search")
        try app.dump { $0["count"] == 5 }
        XCTAssertTrue(isSelected(try client.find("table row", containing: "Lovelace", within: "People", until: isSelected)))
        XCTAssertEqual(try JSONValue(jsonString: try app.sendRaw("select x"))["error"],
                       "select needs a row number or none, not 'x'")

        try app.send("navigate /notes")
        for title in ["Shopping", "Letters"] {
            try app.send("page-action new")
            try app.dump { $0["path"] == "/notes/new" }
            try app.send("field title \(title)")
            try app.send("press save")
            try app.dump { $0["path"] == "/notes" && $0["rows"]?.arrayValue?.contains { $0["text"]?.stringValue?.hasPrefix(title) == true } == true }
        }
        let notes = try app.dump { ($0["rows"]?.arrayValue?.count ?? 0) >= 2 }["rows"]?.arrayValue ?? []
        let letters = try XCTUnwrap(notes.firstIndex { $0["text"]?.stringValue?.hasPrefix("Letters") == true })
        XCTAssertTrue(isSelected(try client.find("list item", containing: "Shopping", within: "Notes") { $0["found"] == true }))
        try app.send("select \(letters)")
        XCTAssertTrue(isSelected(try client.find("list item", containing: "Letters", within: "Notes", until: isSelected)))
        XCTAssertTrue(isNotSelected(try client.find("list item", containing: "Shopping", within: "Notes", until: isNotSelected)))
        // A note added while another is selected gets a new row widget, which GTK calls
        // selected once more after binding it: it says what the table says.
        try app.send("page-action new")
        try app.dump { $0["path"] == "/notes/new" }
        try app.send("field title Receipts")
        try app.send("press save")
        try app.dump { $0["path"] == "/notes" && ($0["rows"]?.arrayValue?.count ?? 0) >= 3 }
        XCTAssertTrue(isNotSelected(try client.find("list item", containing: "Receipts", within: "Notes", until: isNotSelected)))
        XCTAssertTrue(isSelected(try client.find("list item", containing: "Letters", within: "Notes", until: isSelected)))
        XCTAssertEqual(app.finish(), 0)
    }

    func testTheSidebarsSectionsAreNamedAndOpenThroughATSPI() throws {
        let app = try AppDriver(path: "/catalog")
        try app.dump { ($0["count"]?.doubleValue ?? 0) > 100 }
        let nodes = try accessibleNodes(of: app)
        XCTAssertEqual(nodes.unnamed, [])
        for section in ["Catalog", "Favourites", "Notes", "Notes per day", "People", "Plugins", "Event log"] {
            XCTAssertTrue(nodes.all.contains(["role": "list item", "name": .string(section)]), "the sidebar's \(section)")
        }
        XCTAssertTrue(nodes.all.contains(["role": "push button", "name": "Show Sections"]), "the sidebar's toggle")
        // Each row is described by its section's summary (its tooltip), read after its name.
        let client = try AccessibilityClient(app)
        XCTAssertEqual(try client.find("list item", "People")["description"], "A table sorted by any of its columns")
        // The hub's rows are covered by the catalog: only the sidebar has a row named People.
        try perform("row.activate", on: "list item", named: "People", in: app)
        let screen = try app.dump { $0["path"] == "/people" }
        XCTAssertEqual(screen["depth"], 2, "the section replaced the catalog above the hub")
        XCTAssertEqual(app.finish(), 0)
    }

    func testEveryInteractiveNodeOfTheCatalogHasAName() throws {
        let app = try AppDriver(path: "/catalog")
        try app.dump { ($0["count"]?.doubleValue ?? 0) > 100 }
        let nodes = try accessibleNodes(of: app)
        XCTAssertGreaterThan(nodes.all.count, 100, "the client reached the rows: \(nodes.all.prefix(5))")
        XCTAssertEqual(nodes.unnamed, [], "unnamed nodes a screen reader cannot announce")
        XCTAssertTrue(nodes.all.contains(["role": "list item", "name": "Фэнтези"]), "a row is read by its text")
        XCTAssertTrue(nodes.all.contains(["role": "entry", "name": "Search"]))
        XCTAssertTrue(nodes.all.contains(["role": "push button", "name": "Close search"]))
        XCTAssertEqual(app.finish(), 0)
    }

    func testTheNotesPerDayChartIsReadByItsNameAndDescribedByItsLines() throws {
        let app = try AppDriver(path: "/notes-per-day")
        try app.dump { $0["custom"]?["widget"] != nil }
        let script = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("atspi-names.py")
        let result = try CommandRunner.run(URL(fileURLWithPath: "/usr/bin/python3"), [script.path, "\(app.process.processIdentifier)"])
        XCTAssertEqual(result.status, 0, result.stdout + result.stderr)
        let images = try JSONValue(jsonString: result.stdout)["images"]?.arrayValue ?? []
        XCTAssertTrue(images.contains(["role": "image", "name": "Notes per day", "description": "No notes yet."]),
                      "the drawing is named, and described by what it shows: \(images)")
        XCTAssertEqual(app.finish(), 0)
    }

    func testEveryCheckBoxOfTheFavouritesIsNamedByItsGenre() throws {
        let app = try AppDriver(path: "/favourites/add")
        try app.dump { ($0["count"]?.doubleValue ?? 0) > 100 }
        let nodes = try accessibleNodes(of: app)
        let boxes = nodes.all.filter { $0["role"] == "check box" }
        XCTAssertGreaterThan(boxes.count, 10, "\(nodes.all.prefix(5))")
        XCTAssertEqual(nodes.unnamed, [])
        XCTAssertTrue(boxes.contains(["role": "check box", "name": "Фэнтези"]))
        XCTAssertEqual(app.finish(), 0)
    }

    func testAValidationMessageIsAnAlertTiedToItsFieldAndANoticeIsAnAlert() throws {
        let app = try AppDriver(path: "/notes/new")
        try app.send("field body no title")
        try app.send("press save")
        try app.dump { $0["message"] == "A note needs a title." }
        var nodes = try accessibleNodes(of: app)
        XCTAssertEqual(nodes.alerts.map { $0["text"] }, ["A note needs a title."], "\(nodes.alerts)")
        XCTAssertEqual(nodes.alerts.first?["role"], "alert")
        XCTAssertTrue(nodes.all.contains(["role": "text", "name": "Title", "describedBy": ["A note needs a title."]]),
                      "the message is tied to the field at fault: \(nodes.all.filter { $0["role"] == "text" })")
        XCTAssertTrue(nodes.all.contains(["role": "text", "name": "Text"]), "the other field is not")

        try app.send("field title Покупки")
        try app.send("press save")
        try app.dump { $0["path"] == "/notes" && $0["count"] == 1 }
        try app.send("activate 0")
        try app.dump { $0["buttons"]?["delete"] != nil }
        try app.send("press delete")
        try app.send("press delete")
        try app.dump { $0["notice"] != .null }
        nodes = try accessibleNodes(of: app)
        XCTAssertEqual(nodes.alerts.map { $0["text"] }, ["Deleted “Покупки”"], "the notice; the editor's message went with it")
        XCTAssertTrue(nodes.all.contains(["role": "push button", "name": "Undo"]))
        XCTAssertTrue(nodes.all.contains(["role": "push button", "name": "Close notice"]))
        XCTAssertEqual(nodes.unnamed, [])
        XCTAssertEqual(app.finish(), 0)
    }
}
