import Foundation
import TrellisCore
import XCTest

/// Visits every route `trellis routes` lists and saves a screenshot of each under
/// `.build/screenshots/route-*.png` (look at them after a change to a page).
final class RouteScreenshotTests: XCTestCase {
    /// A path for each pattern of the route table: parameters take the value 5.
    static func samplePaths() throws -> [String] {
        let listing = try CommandRunner.run(AppDriver.executable, ["routes"])
        XCTAssertEqual(listing.status, 0, listing.stderr)
        return listing.stdout.split(separator: "\n").dropFirst().compactMap { line in
            guard let pattern = line.split(separator: " ").first, pattern.hasPrefix("/") else { return nil }
            return "/" + pattern.split(separator: "/").map { $0.hasPrefix(":") || $0.hasPrefix("*") ? "5" : String($0) }
                .joined(separator: "/")
        }
    }

    func testEveryRouteOpensAndIsPhotographed() throws {
        let paths = try Self.samplePaths()
        XCTAssertTrue(paths.contains("/catalog/5") && paths.contains("/events"), "\(paths)")
        let app = try AppDriver(arguments: ["/"])
        for path in paths {
            // Each page is shown right above the home page, as when opened from it.
            if path != "/" { try app.send("go \(path)") }
            let screen = try app.send("dump")
            XCTAssertEqual(screen["depth"], path == "/" ? 1 : 2)
            XCTAssertEqual(screen["path"]?.stringValue, path)
            XCTAssertEqual(screen["message"], .null, "\(path) shows an error: \(screen["message"] ?? .null)")
            XCTAssertFalse(screen["title"]?.stringValue?.isEmpty ?? true, "\(path) has no title")
            let name = path == "/" ? "home" : path.dropFirst().replacingOccurrences(of: "/", with: "-")
            let shot = try app.screenshot("route-\(name)")
            let size = (try FileManager.default.attributesOfItem(atPath: shot)[.size] as? Int) ?? 0
            XCTAssertGreaterThan(size, 5_000, "\(path): \(shot) is too small to be a window")
            if path != "/" { try app.send("back") }
        }
        XCTAssertEqual(app.finish(), 0)
    }
}
