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

    func testTogglingACheckboxOnTheFavouritesPageTicksItAndKeepsIt() throws {
        let app = try AppDriver(arguments: ["/favourites"])
        XCTAssertEqual(try app.send("dump")["rows"]?[1]?["checkbox"], false)
        try app.send("toggle 1")
        try app.send("toggle 3")
        var rows = try app.send("dump")["rows"]
        XCTAssertEqual(rows?[1]?["checkbox"], true)
        XCTAssertEqual(rows?[3]?["checkbox"], true)
        XCTAssertEqual(rows?[2]?["checkbox"], false)
        try app.screenshot("favourites")
        try app.send("back")
        try app.send("navigate /favourites")
        rows = try app.send("dump")["rows"]
        XCTAssertEqual(rows?[1]?["checkbox"], true, "favourites outlive the page")
        try app.send("navigate /catalog/1")
        XCTAssertEqual(try app.send("dump")["title"], "Фантастика и фэнтези")
        XCTAssertEqual(app.finish(), 0)
    }
}
