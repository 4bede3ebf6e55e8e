import Foundation
import TrellisCore
import XCTest

/// The people page as a `GtkColumnView`: titled columns, sorting by a header.
final class PeopleColumnsWindowTests: XCTestCase {
    private func cells(_ screen: JSONValue) -> [[String]] {
        screen["cells"]?.arrayValue?.map { $0.arrayValue?.compactMap(\.stringValue) ?? [] } ?? []
    }

    func testThePeoplePageShowsTitledColumnsAndSortsByAHeader() throws {
        let app = try AppDriver(arguments: ["/people"])
        var screen = try app.dump { !($0["cells"]?.arrayValue?.isEmpty ?? true) }
        XCTAssertEqual(screen["columns"], ["First name", "Surname", "Age"])
        XCTAssertEqual(screen["sort"], .null, "by surname, as the request says, with no header marked")
        XCTAssertEqual(cells(screen).first, ["Grace", "Hopper", "85"])
        XCTAssertEqual(screen["count"], 5)
        let built = try XCTUnwrap(screen["rowWidgetsBuilt"]?.intValue)
        XCTAssertGreaterThan(built, 0)

        try app.send("sort age")
        screen = try app.dump { $0["cells"]?[0]?[2] == "36" }
        XCTAssertEqual(screen["sort"], ["column": "Age", "ascending": true])
        XCTAssertEqual(cells(screen).map { $0[2] }, ["36", "59", "76", "82", "85"])
        XCTAssertEqual(cells(screen).first, ["Ada", "Lovelace", "36"])
        XCTAssertEqual(screen["rows"]?[0]?["text"], "Ada · Lovelace · 36")

        try app.send("sort age desc")
        screen = try app.dump { $0["cells"]?[0]?[2] == "85" }
        XCTAssertEqual(screen["sort"], ["column": "Age", "ascending": false])
        XCTAssertEqual(cells(screen).map { $0[2] }, ["85", "82", "76", "59", "36"])

        try app.send("sort firstName")
        screen = try app.dump { $0["cells"]?[0]?[0] == "Ada" }
        XCTAssertEqual(cells(screen).map { $0[0] }, ["Ada", "Grace", "Анна", "Лев", "Фёдор"])
        // Each sort filled the rows GTK has with the sorted ones: none was built again.
        XCTAssertEqual(screen["rowWidgetsBuilt"]?.intValue, built, "a sort built row widgets instead of filling them")
        try app.screenshot("people-columns")

        let refused = try JSONValue(jsonString: app.sendRaw("sort nickname"))
        XCTAssertEqual(refused["ok"], false)
        XCTAssertTrue(refused["error"]?.stringValue?.contains("no column nickname") ?? false, "\(refused)")
        try app.send("activate 1")
        XCTAssertEqual(try app.send("dump")["path"], "/people", "activating a person row keeps the page")
        XCTAssertEqual(app.finish(), 0)
    }
}
