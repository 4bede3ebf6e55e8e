import Foundation
import TrellisCore
import XCTest

/// A checklist driven with the real mouse and keyboard (xdotool's X test events, as a person's
/// clicks and keys arrive): a click on a row's text or on its box ticks it once, Space ticks or
/// unticks the focused row, Enter does as a click.
final class ChecklistKeyboardWindowTests: XCTestCase {
    private static let xdotool = URL(fileURLWithPath: "/usr/bin/xdotool")

    private func xdotool(_ arguments: String...) throws {
        let result = try CommandRunner.run(Self.xdotool, arguments)
        XCTAssertEqual(result.status, 0, "xdotool \(arguments.joined(separator: " ")): \(result.stderr)")
    }

    /// Clicks with the real pointer in the middle of row `row`'s `part` ("row": a little right of
    /// its start, where its text is; "checkbox": its box), wherever the window lays it out.
    private func click(_ app: AppDriver, _ window: String, row: Int, on part: String) throws {
        let bounds = try XCTUnwrap(try app.send("row-bounds \(row)")[part])
        let inset = part == "row" ? 60.0 : (bounds["width"]?.doubleValue ?? 0) / 2
        let x = Int((bounds["x"]?.doubleValue ?? 0) + inset)
        let y = Int((bounds["y"]?.doubleValue ?? 0) + (bounds["height"]?.doubleValue ?? 0) / 2)
        try xdotool("mousemove", "--window", window, String(x), String(y), "click", "1")
    }

    /// The ticked rows of the list on screen.
    private func ticked(_ screen: JSONValue) -> [Int] {
        (screen["rows"]?.arrayValue ?? []).filter { $0["checkbox"] == true }.compactMap { $0["position"]?.intValue }
    }

    func testClicksSpaceAndEnterTickTheRowsOfTheCatalogChecklist() throws {
        guard FileManager.default.isExecutableFile(atPath: Self.xdotool.path) else {
            if ProcessInfo.processInfo.environment["TRELLIS_REQUIRE_GUI"] == "1" { XCTFail("xdotool is missing: bash .ci/test installs it") }
            throw XCTSkip("needs xdotool")
        }
        let app = try AppDriver(arguments: ["/favourites/add"])
        try app.dump { ($0["count"]?.doubleValue ?? 0) > 100 }
        let search = try CommandRunner.run(Self.xdotool, ["search", "--sync", "--name", "^Add favourites$"])
        let window = try XCTUnwrap(search.stdout.split(separator: "\n").first.map(String.init), search.stderr)
        try xdotool("windowfocus", "--sync", window)
        try click(app, window, row: 1, on: "row")  // on the row's text
        XCTAssertEqual(ticked(try app.dump { self.ticked($0) == [1] }), [1])
        try xdotool("key", "Down", "space")  // the focus moves to row 2; Space ticks it
        XCTAssertEqual(ticked(try app.dump { self.ticked($0) == [1, 2] }), [1, 2])
        try xdotool("key", "space")
        XCTAssertEqual(ticked(try app.dump { self.ticked($0) == [1] }), [1], "Space again unticks it")
        try xdotool("key", "Down", "Return")
        XCTAssertEqual(ticked(try app.dump { self.ticked($0) == [1, 3] }), [1, 3])
        try click(app, window, row: 0, on: "checkbox")
        XCTAssertEqual(ticked(try app.dump { self.ticked($0) == [0, 1, 3] }), [0, 1, 3], "a click on the box ticks it once")
        try xdotool("key", "space")  // the focus is on that box now
        XCTAssertEqual(ticked(try app.dump { self.ticked($0) == [1, 3] }), [1, 3], "Space on a focused box unticks it once")
        try app.screenshot("favourites-keyboard")
        XCTAssertEqual(app.finish(), 0)
    }
}
