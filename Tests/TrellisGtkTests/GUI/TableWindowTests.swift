import Foundation
import TrellisCore
import XCTest

/// Searching and checkboxes in the real window's lists.
final class TableWindowTests: XCTestCase {
    func testTypingASearchFiltersTheCatalogCaseAndYoInsensitively() throws {
        let app = try AppDriver()
        try app.send("search ФЭНТЕЗИ")
        let screen = try app.send("dump")
        XCTAssertEqual(screen["count"], 11)
        let texts = try app.visibleRowTexts()
        XCTAssertEqual(texts.count, 11)
        XCTAssertTrue(texts.allSatisfy { $0.lowercased().contains("фэнтези") }, "\(texts)")
        try app.screenshot("catalog-search")
        try app.send("search ёж")
        let hedgehogs = try app.visibleRowTexts()
        XCTAssertTrue(hedgehogs.allSatisfy { $0.lowercased().replacingOccurrences(of: "ё", with: "е").contains("еж") }, "\(hedgehogs)")
        try app.send("search")
        XCTAssertEqual(try app.send("dump")["count"], 214, "clearing the search shows every row again")
        XCTAssertEqual(app.finish(), 0)
    }

    /// Typed as a person types (each `search` adds or erases letters at the end of the field),
    /// on 200,000 rows: each keystroke is matched off the GTK thread, and the list the
    /// window shows is that keystroke's. Every row reads "row N"; a query's terms must each
    /// occur, so "row 12" shows the rows whose number contains 12.
    func testTypingOnManyRowsNarrowsAndWidensKeystrokeByKeystroke() throws {
        let app = try AppDriver(arguments: ["--rows", "200000"])
        func expectedCount(_ text: String) -> Int {
            let terms = text.split(separator: " ").map(String.init)
            return (0..<200_000).reduce(0) { count, number in
                let row = "row \(number)"
                return terms.allSatisfy(row.contains) ? count + 1 : count
            }
        }
        /// The first `count` rows showing for `text`, in order.
        func expectedFirstRows(_ text: String, _ count: Int) -> [String] {
            let terms = text.split(separator: " ").map(String.init)
            return Array((0..<200_000).lazy.map { "row \($0)" }.filter { row in terms.allSatisfy(row.contains) }.prefix(count))
        }
        let built = try app.send("dump")["rowWidgetsBuilt"]?.intValue ?? 0
        var checkedNarrowing = false
        XCTAssertGreaterThan(built, 0)
        for text in ["r", "ro", "row", "row 1", "row 12", "row 123", "row 1234", "row 12345",
                     "row 123", "row 12", "row 2", "row 2 7", ""] {
            let screen = try app.send(text.isEmpty ? "search" : "search \(text)")
            XCTAssertEqual(screen["ok"], true, "search \(text)")
            let dump = try app.send("dump")
            XCTAssertEqual(dump["search"]?.stringValue, text)
            XCTAssertEqual(dump["count"]?.intValue, expectedCount(text), "“\(text)”")
            // The rows on screen are this keystroke's, in order, in the row widgets kept from before.
            let shown = try app.visibleRowTexts()
            XCTAssertEqual(shown, expectedFirstRows(text, shown.count), "“\(text)”")
            if text == "row 12" && !checkedNarrowing {
                checkedNarrowing = true
                // Still thousands of rows: every one of the ~200 row widgets GTK keeps was
                // filled again, none built (a shorter list drops some, a longer one adds them).
                XCTAssertEqual(dump["rowWidgetsBuilt"]?.intValue, built, "narrowing built row widgets instead of filling them")
            }
        }
        let rows = try app.visibleRowTexts()
        XCTAssertEqual(Array(rows.prefix(2)), ["row 0", "row 1"], "every row again, in order")
        XCTAssertEqual(app.finish(), 0)
    }

    func testTogglingACheckboxOrItsRowOnTheCatalogChecklistTicksItAndTheFavouritesListIt() throws {
        let app = try AppDriver(arguments: ["/favourites"])
        var screen = try app.send("dump")
        XCTAssertEqual(screen["count"], 0)
        XCTAssertEqual(screen["placeholder"], "No favourites yet. Press + to pick genres from the catalog.")
        try app.send("page-action add")
        screen = try app.dump { $0["path"] == "/favourites/add" }
        XCTAssertEqual(screen["rows"]?[1]?["checkbox"], false)
        try app.send("toggle 1")
        try app.send("activate 3")  // a click anywhere on the row ticks it too
        var rows = try app.send("dump")["rows"]
        XCTAssertEqual(rows?[1]?["checkbox"], true)
        XCTAssertEqual(rows?[3]?["checkbox"], true)
        XCTAssertEqual(rows?[2]?["checkbox"], false)
        try app.screenshot("favourites-add")
        try app.send("back")
        screen = try app.dump { $0["path"] == "/favourites" && $0["count"] == 2 }
        XCTAssertEqual(screen["rows"]?.arrayValue?.compactMap { $0["checkbox"]?.boolValue }, [true, true])
        try app.screenshot("favourites")
        try app.send("activate 0")  // unticks: no longer a favourite
        XCTAssertEqual(try app.dump { $0["rows"]?[0]?["checkbox"] == false }["count"], 2, "it stays until the page is shown again")
        try app.send("page-action add")
        rows = try app.dump { $0["path"] == "/favourites/add" }["rows"]
        XCTAssertEqual(rows?[1]?["checkbox"], false)
        XCTAssertEqual(rows?[3]?["checkbox"], true, "favourites outlive the page")
        try app.send("navigate /catalog/1")
        XCTAssertEqual(try app.send("dump")["title"], "Фантастика и фэнтези")
        XCTAssertEqual(app.finish(), 0)
    }
}
