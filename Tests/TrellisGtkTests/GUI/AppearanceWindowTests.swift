import Foundation
import TrellisCore
import XCTest

/// Every page, at GNOME's narrowest width (360×640) and on a large screen (1280×800), in the
/// light and the dark theme: photographed (`.build/screenshots/page-*.png`, to look at), usable
/// at 360 pixels (the window is as narrow as asked, its header bar folded), and every text on
/// screen at a contrast of at least 4.5:1 with what it is drawn on (WCAG AA), measured in the
/// screenshot itself — with a message of each kind and a notice shown too.
final class AppearanceWindowTests: XCTestCase {
    static let sizes = [(width: 360, height: 640), (width: 1280, height: 800)]
    static let minimumContrast = 4.5

    func testEveryPageIsPhotographedAndReadableInTheLightTheme() throws {
        try checkEveryPage(theme: nil, name: "light")
    }

    func testEveryPageIsPhotographedAndReadableInTheDarkTheme() throws {
        try checkEveryPage(theme: "Adwaita:dark", name: "dark")
    }

    private func checkEveryPage(theme: String?, name: String) throws {
        let paths = try RouteScreenshotTests.samplePaths()
        let app = try AppDriver(arguments: ["/"], environment: theme.map { ["GTK_THEME": $0] } ?? [:])
        try app.waitForPlugins()
        var unreadable: [String] = []
        for size in Self.sizes {
            // Twice: the first narrowing folds the header bar, which lets the window narrow further.
            for _ in 0..<2 { try app.send("resize \(size.width) \(size.height)"); try app.send("dump") }
            let screen = try app.dump { ($0["width"]?.intValue ?? 0) <= size.width }
            XCTAssertLessThanOrEqual(screen["width"]?.intValue ?? .max, size.width, "the window cannot be \(size.width) wide")
            for path in paths {
                if path != "/" { try app.send("go \(path)") }
                unreadable += try Self.photograph(app, "\(path)", size: size, theme: name)
                if path != "/" { try app.send("back") }
            }
            // A message of each kind, and a notice.
            try app.send("go /notes/new")
            try app.send("press save")
            try app.dump { $0["message"] != .null }
            unreadable += try Self.photograph(app, "/notes/new (invalid)", size: size, theme: name)
            try app.send("field title Groceries")
            try app.send("back")
            try app.send("go /notes/new")
            try app.dump { $0["message"]?.stringValue?.hasPrefix("Your unsaved changes are back") == true }
            unreadable += try Self.photograph(app, "/notes/new (draft restored)", size: size, theme: name)
            try app.send("press save")
            try app.dump { $0["path"] == "/notes" && $0["count"] == 1 }
            try app.send("activate 0")
            try app.dump { $0["buttons"]?["delete"] != nil }
            try app.send("press delete")
            try app.send("press delete")
            try app.dump { $0["notice"] != .null }
            unreadable += try Self.photograph(app, "/notes (notice)", size: size, theme: name)
            try app.send("notice-close")
            while try app.send("dump")["depth"] != 1 { try app.send("back") }
        }
        XCTAssertEqual(unreadable, [], "texts under \(Self.minimumContrast):1 in the \(name) theme")
        XCTAssertEqual(app.finish(), 0)
    }

    /// Photographs the window as it is and returns its texts whose contrast is too low.
    static func photograph(_ app: AppDriver, _ page: String, size: (width: Int, height: Int), theme: String) throws -> [String] {
        let regions = try XCTUnwrap(try app.send("text-regions")["regions"]?.arrayValue)
        let slug = page.replacingOccurrences(of: "/", with: "-").replacingOccurrences(of: " ", with: "")
            .trimmingCharacters(in: CharacterSet(charactersIn: "-")).filter { $0.isLetter || $0.isNumber || $0 == "-" || $0 == "(" || $0 == ")" }
        let shot = try app.screenshot("page-\(slug.isEmpty ? "home" : slug)-\(size.width)x\(size.height)-\(theme)")
        let image = try TextContrast(png: shot)
        XCTAssertFalse(regions.isEmpty, "\(page): no text on screen")
        return regions.compactMap { region -> String? in
            guard let x = region["x"]?.doubleValue, let y = region["y"]?.doubleValue, let width = region["width"]?.doubleValue,
                  let height = region["height"]?.doubleValue,
                  let measured = image.measure(x: x, y: y, width: width, height: height),
                  measured.ratio < Self.minimumContrast else { return nil }
            let ratio = (measured.ratio * 100).rounded() / 100
            return "\(page) at \(size.width)x\(size.height): “\(region["text"]?.stringValue ?? "")” \(ratio):1 "
                + "(\(measured.text) on \(measured.background))"
        }
    }
}
