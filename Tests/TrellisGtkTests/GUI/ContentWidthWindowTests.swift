import Foundation
import TrellisCore
import XCTest

/// On a wide window, forms and lists stay in a centred column (at most 800 pixels, as
/// GNOME's apps keep theirs); on a narrow one they fill the window.
final class ContentWidthWindowTests: XCTestCase {
    func testFormsListsAndTextStayInAColumnOnAWideWindowAndFillANarrowOne() throws {
        let app = try AppDriver(arguments: ["/notes/new"])
        var screen = try app.send("dump")  // the window is shown: a resize now is not undone by its first layout
        try app.send("resize 1180 700")
        screen = try app.dump { ($0["width"]?.intValue ?? 0) >= 1100 }
        XCTAssertEqual(screen["contentWidth"], 764, "the editor's column: 800 pixels, less the form's margins")
        try app.screenshot("wide-note-editor")
        for (path, width) in [("/catalog", 800), ("/catalog/5", 764), ("/people", 800), ("/events", 800)] {
            try app.send("go \(path)")
            screen = try app.dump { $0["path"]?.stringValue == path && $0["contentWidth"]?.intValue == width }
            XCTAssertEqual(screen["contentWidth"]?.intValue, width, path)
        }
        try app.screenshot("wide-people")
        try app.send("navigate /catalog")
        _ = try app.dump { $0["path"] == "/catalog" && $0["contentWidth"] == 800 }
        try app.screenshot("wide-catalog")

        try app.send("resize 480 640")
        screen = try app.dump { ($0["width"]?.intValue ?? 0) <= 500 && ($0["contentWidth"]?.intValue ?? 0) < 500 }
        let width = try XCTUnwrap(screen["width"]?.intValue)
        XCTAssertGreaterThan(screen["contentWidth"]?.intValue ?? 0, width - 40, "a narrow window's list fills it")
        try app.screenshot("narrow-catalog")
        XCTAssertEqual(app.finish(), 0)
    }
}
