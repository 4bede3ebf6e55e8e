import Foundation
import TrellisCore
import XCTest

/// The window as a screen reader finds it: a real AT-SPI client (pyatspi, the library Orca is
/// built on) walks the running app's accessibility tree over the accessibility bus.
final class ScreenReaderTests: XCTestCase {
    /// The interactive nodes of the app and the unnamed ones, as the AT-SPI client reports them.
    private func accessibleNodes(of app: AppDriver) throws -> (all: [JSONValue], unnamed: [JSONValue]) {
        let script = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("atspi-names.py")
        let result = try CommandRunner.run(URL(fileURLWithPath: "/usr/bin/python3"), [script.path, "\(app.process.processIdentifier)"])
        XCTAssertEqual(result.status, 0, result.stdout + result.stderr)
        let report = try JSONValue(jsonString: result.stdout)
        return (report["interactive"]?.arrayValue ?? [], report["unnamed"]?.arrayValue ?? [])
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
}
