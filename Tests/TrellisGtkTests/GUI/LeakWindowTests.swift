import Foundation
import TrellisCore
import XCTest

/// Navigating to pages and back in the real window leaves nothing behind.
final class LeakWindowTests: XCTestCase {
    func testAThousandNavigateBackCyclesKeepMemoryAndWatchersFlat() throws {
        let app = try AppDriver()
        // The plugins, loaded after the first frame, add their watches before the counting starts.
        try app.waitForPlugins()
        // The first round warms GTK's caches (CSS, glyphs, renderer); the second must be flat.
        let warmUp = try app.send("cycle 1000")
        let measured = try app.send("cycle 1000", timeout: 120)
        let before = try XCTUnwrap(measured["before"]?["rssKiB"]?.intValue)
        let after = try XCTUnwrap(measured["after"]?["rssKiB"]?.intValue)
        print("leak cycles: warm-up \(warmUp["before"]?["rssKiB"] ?? nil) → \(warmUp["after"]?["rssKiB"] ?? nil) KiB; measured \(before) → \(after) KiB")
        XCTAssertLessThan(after - before, 4096, "1,000 navigate/back cycles grew memory by \(after - before) KiB")
        XCTAssertEqual(measured["after"]?["watches"], warmUp["before"]?["watches"], "a popped page left a watcher behind")
        XCTAssertEqual(measured["after"]?["rowItems"], measured["before"]?["rowItems"], "row items leaked")
        XCTAssertEqual(measured["after"]?["depth"], 2)
        XCTAssertEqual(app.finish(), 0)
    }
}
