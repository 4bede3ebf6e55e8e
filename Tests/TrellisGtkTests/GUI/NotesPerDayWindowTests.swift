import Foundation
import TrellisCore
import XCTest

/// The demo's custom page, `/notes-per-day`: a `GtkDrawingArea` drawn by the app's renderer,
/// named for screen readers, following the store live.
final class NotesPerDayWindowTests: XCTestCase {
    func testTheChartDrawsABarForTodaysNoteOnceItIsSaved() throws {
        let app = try AppDriver(arguments: ["/notes-per-day"])
        var screen = try app.dump { $0["custom"]?["widget"] != nil }
        XCTAssertEqual(screen["title"], "Notes per day")
        XCTAssertEqual(screen["custom"]?["widget"], "GtkDrawingArea")
        XCTAssertEqual(screen["custom"]?["accessibleLabel"], true)
        XCTAssertEqual(screen["custom"]?["lines"], ["No notes yet."])
        let empty = try app.screenshot("notes-per-day-empty")
        let bounds = try XCTUnwrap(screen["custom"]?["bounds"]?.arrayValue?.compactMap(\.doubleValue))
        XCTAssertGreaterThan(bounds[2], 300, "the drawing fills the page's width")
        XCTAssertEqual(try Self.accentPixels(in: empty, within: bounds), 0, "no bar without notes")

        for (count, title) in ["Groceries", "Letters"].enumerated() {
            try app.send("navigate /notes/new")
            try app.send("field title \(title)")
            try app.send("press save")
            try app.dump { $0["path"] == "/notes" && $0["count"] == .number(Double(count + 1)) }
            while try app.send("dump")["path"] != "/notes-per-day" { try app.send("back") }
        }
        screen = try app.dump { $0["custom"]?["lines"]?[0]?.stringValue?.hasSuffix(" 2") == true }
        let today = Self.today()
        XCTAssertEqual(screen["custom"]?["lines"], .array([.string("\(today) \(String(repeating: "▇", count: 20)) 2")]),
                       "the page under the editor followed the saves")
        let drawn = try app.screenshot("notes-per-day")
        XCTAssertGreaterThan(try Self.accentPixels(in: drawn, within: bounds), 2000, "a bar in the accent colour")
        XCTAssertEqual(app.finish(), 0)
    }

    /// Today as the chart writes it (`yyyy-MM-dd`, local time).
    private static func today() -> String {
        let format = DateFormatter()
        format.locale = Locale(identifier: "en_US_POSIX")
        format.dateFormat = "yyyy-MM-dd"
        return format.string(from: Date())
    }

    /// How many pixels of the PNG at `path` inside `bounds` (`[x, y, width, height]`) are the
    /// chart's bar colour, GNOME's blue accent #3584e4.
    private static func accentPixels(in path: String, within bounds: [Double]) throws -> Int {
        try TextContrast(png: path).pixelCount(near: TextContrast.Colour(red: 0x35, green: 0x84, blue: 0xE4), tolerance: 7,
                                               within: bounds)
    }
}
