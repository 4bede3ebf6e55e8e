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

    func testTheSidebarsSectionsAreNamedAndOpenThroughATSPI() throws {
        let app = try AppDriver(path: "/catalog")
        try app.dump { ($0["count"]?.doubleValue ?? 0) > 100 }
        let nodes = try accessibleNodes(of: app)
        XCTAssertEqual(nodes.unnamed, [])
        for section in ["Catalog", "Favourites", "Notes", "Notes per day", "People", "Plugins", "Event log"] {
            XCTAssertTrue(nodes.all.contains(["role": "list item", "name": .string(section)]), "the sidebar's \(section)")
        }
        XCTAssertTrue(nodes.all.contains(["role": "push button", "name": "Show Sections"]), "the sidebar's toggle")
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
