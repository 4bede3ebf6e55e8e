import Foundation
import TrellisCore
import XCTest

/// The sections' sidebar in the real window, driven with the real pointer and keyboard
/// (xdotool): every section one click away from the first screen, the current section
/// highlighted wherever navigation goes, folded away on a narrow window and brought back by
/// the header bar's toggle or F9.
final class SidebarWindowTests: XCTestCase {
    private static let xdotool = URL(fileURLWithPath: "/usr/bin/xdotool")
    private static let sections = ["Catalog", "Favourites", "Notes", "Notes per day", "People", "Plugins", "Event log"]

    private func xdotool(_ arguments: String...) throws {
        let result = try CommandRunner.run(Self.xdotool, arguments)
        XCTAssertEqual(result.status, 0, "xdotool \(arguments.joined(separator: " ")): \(result.stderr)")
    }

    /// The index of the selected sidebar row, if any.
    private func selected(_ sidebar: JSONValue) -> Int? {
        sidebar["rows"]?.arrayValue?.firstIndex { $0["selected"] == true }
    }

    /// Clicks with the real pointer in the middle of sidebar row `row`.
    private func click(_ app: AppDriver, _ window: String, row: Int) throws {
        let bounds = try XCTUnwrap(try app.send("sidebar")["rows"]?[row]?["bounds"], "row \(row) is not laid out")
        let x = Int((bounds["x"]?.doubleValue ?? 0) + (bounds["width"]?.doubleValue ?? 0) / 2)
        let y = Int((bounds["y"]?.doubleValue ?? 0) + (bounds["height"]?.doubleValue ?? 0) / 2)
        try xdotool("mousemove", "--window", window, String(x), String(y), "click", "1")
    }

    private func requireXdotool() throws {
        guard FileManager.default.isExecutableFile(atPath: Self.xdotool.path) else {
            if ProcessInfo.processInfo.environment["TRELLIS_REQUIRE_GUI"] == "1" { XCTFail("xdotool is missing: bash .ci/test installs it") }
            throw XCTSkip("needs xdotool")
        }
    }

    /// The X window titled `title`, focused for the keyboard.
    private func focusWindow(titled title: String) throws -> String {
        let search = try CommandRunner.run(Self.xdotool, ["search", "--sync", "--onlyvisible", "--name", "^\(title)$"])
        let window = try XCTUnwrap(search.stdout.split(separator: "\n").first.map(String.init), search.stderr)
        try xdotool("windowfocus", "--sync", window)
        return window
    }

    /// The index of the sidebar row that has the keyboard focus, if any.
    private func focused(_ sidebar: JSONValue) -> Int? {
        sidebar["rows"]?.arrayValue?.firstIndex { $0["focused"] == true }
    }

    func testEverySectionIsOneClickAwayAndTheCurrentOneIsHighlighted() throws {
        try requireXdotool()
        let app = try AppDriver(path: nil)
        XCTAssertEqual(try app.send("dump")["path"], "/", "the app opens on its hub")
        let sidebar = try app.send("sidebar")
        XCTAssertEqual(sidebar["rows"]?.arrayValue?.compactMap { $0["title"]?.stringValue }, Self.sections)
        XCTAssertEqual(sidebar["rows"]?.arrayValue?.allSatisfy { $0["accessibleLabel"] == true }, true, "each row is named")
        XCTAssertEqual(sidebar["listLabel"], true, "the list is named")
        XCTAssertEqual(sidebar["shown"], true)
        XCTAssertNil(selected(sidebar), "the hub is in no section")
        try app.screenshot("sidebar-home")

        let window = try focusWindow(titled: "Trellis")
        try click(app, window, row: 2)
        var screen = try app.dump { $0["path"] == "/notes" }
        XCTAssertEqual(screen["depth"], 2, "opened in one step, right above the hub")
        XCTAssertEqual(selected(try app.send("sidebar")), 2)

        // The clicked row keeps the keyboard focus: Down moves to the next section, Enter opens it.
        try xdotool("key", "Down", "Return")
        screen = try app.dump { $0["path"] == "/notes-per-day" }
        XCTAssertEqual(screen["depth"], 2, "a section replaces the one before, it does not stack on it")
        XCTAssertEqual(selected(try app.send("sidebar")), 3, "/notes-per-day is its own section, not part of /notes")

        try app.send("go /catalog/5")
        _ = try app.dump { $0["path"] == "/catalog/5" }
        XCTAssertEqual(selected(try app.send("sidebar")), 0, "a page under a section highlights it")
        try app.screenshot("sidebar-catalog-detail")
        try app.send("back")
        try app.send("back")
        _ = try app.dump { $0["path"] == "/" }
        XCTAssertNil(selected(try app.send("sidebar")), "back on the hub, no section is highlighted")
        XCTAssertEqual(app.finish(), 0)
    }

    /// What a person sees, not only what the sidebar says: only the current section's row is
    /// drawn highlighted. Two sections opened a frame apart, the first right at the start:
    /// GTK 4.8 then did not redraw the first one's row when it lost its highlight, and it stayed
    /// highlighted on screen beside the second one's until something else redrew it.
    func testOnlyTheCurrentSectionsRowIsDrawnHighlighted() throws {
        let app = try AppDriver(path: nil)
        try app.send("go /notes")
        _ = try app.dump { $0["path"] == "/notes" }
        try app.send("go /people")
        _ = try app.dump { $0["path"] == "/people" }
        let sidebar = try app.send("sidebar")
        XCTAssertEqual(selected(sidebar), 4)
        let backgrounds = try rowBackgrounds(sidebar, in: TextContrast(png: try app.screenshot("sidebar-drawn")))
        let plain = backgrounds.enumerated().filter { $0.offset != 4 }.map(\.element)
        XCTAssertEqual(Set(plain).count, 1, "every other row is drawn alike: \(backgrounds)")
        XCTAssertNotEqual(backgrounds[4], plain.first, "the current section's row is drawn highlighted: \(backgrounds)")
        XCTAssertEqual(app.finish(), 0)
    }

    /// Each sidebar row's background in `screenshot`: the most frequent colour near its right
    /// end, where no title reaches and a focus outline does not.
    private func rowBackgrounds(_ sidebar: JSONValue, in screenshot: TextContrast) throws -> [TextContrast.Colour] {
        try XCTUnwrap(sidebar["rows"]?.arrayValue).map { row in
            let x = try XCTUnwrap(row["bounds"]?["x"]?.doubleValue), y = try XCTUnwrap(row["bounds"]?["y"]?.doubleValue)
            let width = try XCTUnwrap(row["bounds"]?["width"]?.doubleValue), height = try XCTUnwrap(row["bounds"]?["height"]?.doubleValue)
            return try XCTUnwrap(screenshot.background(x: x + width - 24, y: y + height / 2 - 4, width: 16, height: 8))
        }
    }

    func testShiftTabFromThePageReachesTheCurrentSectionAndEnterOpensAnother() throws {
        try requireXdotool()
        let app = try AppDriver()
        try app.dump { ($0["count"]?.doubleValue ?? 0) > 100 }
        _ = try focusWindow(titled: "Catalog")
        // The sidebar comes before the page in the focus chain.
        try xdotool("key", "shift+Tab")
        XCTAssertEqual(focused(try app.send("sidebar", until: { self.focused($0) != nil })), 0, "the focus lands on the current section")
        try xdotool("key", "Down", "Return")
        XCTAssertEqual(try app.dump { $0["path"] == "/favourites" }["depth"], 2)
        XCTAssertEqual(app.finish(), 0)
    }

    func testTheSidebarFoldsAwayOnANarrowWindowAndTheToggleOrF9BringsItBack() throws {
        let app = try AppDriver()
        XCTAssertEqual(try app.send("accels win.toggle-sidebar")["accels"], ["F9"])
        XCTAssertEqual(try app.send("chrome")["widgets"]?["sidebar"]?["tooltip"], "Show Sections")
        try app.send("dump")  // the window is shown: a resize now is not undone by its first layout
        try app.send("resize 1280 800")
        let screen = try app.dump { ($0["width"]?.intValue ?? 0) >= 1200 && $0["contentWidth"] == 800 }
        XCTAssertEqual(screen["contentWidth"], 800, "the content keeps its column beside the sidebar")
        var sidebar = try app.send("sidebar")
        XCTAssertEqual(sidebar["shown"], true)
        XCTAssertEqual(sidebar["toggle"], true, "the toggle shows the sidebar is open")
        XCTAssertEqual(selected(sidebar), 0)
        try app.screenshot("sidebar-wide-catalog")

        try app.send("resize 360 640")
        sidebar = try app.send("sidebar", until: { $0["folded"] == true })
        XCTAssertEqual(sidebar["shown"], false, "a narrow window folds the sidebar away")
        XCTAssertEqual(sidebar["toggle"], false)
        try app.screenshot("sidebar-narrow-folded")
        try app.send("sidebar-toggle")
        sidebar = try app.send("sidebar", until: { $0["shown"] == true })
        XCTAssertEqual(sidebar["toggle"], true)
        try app.screenshot("sidebar-narrow-open")
        try app.send("action win.toggle-sidebar")
        XCTAssertEqual(try app.send("sidebar", until: { $0["shown"] == false })["shown"], false, "F9 hides it again")

        try app.send("resize 1280 800")
        sidebar = try app.send("sidebar", until: { $0["folded"] == false })
        XCTAssertEqual(sidebar["shown"], true, "a wide window brings it back")
        XCTAssertEqual(app.finish(), 0)
    }
}
