import Foundation
import TrellisCore
import XCTest

/// Navigating to pages and back in the real window leaves nothing behind.
final class LeakWindowTests: XCTestCase {
    func testAThousandNavigateBackCyclesKeepMemoryAndWatchersFlat() throws {
        let app = try AppDriver()
        // The plugins, loaded after the first frame, add their watches before the counting starts.
        try app.waitForPlugins()
        let client = try AccessibilityClient(app)
        // The first round warms GTK's caches (CSS, glyphs, renderer); the second must be flat.
        let warmUp = try app.send("cycle 1000", timeout: 120)
        let before = try settled(app, client)
        let measured = try app.send("cycle 1000", timeout: 120)
        let after = try settled(app, client)
        let growth = { (key: String) -> Int in (after[key]?.intValue ?? 0) - (before[key]?.intValue ?? 0) }
        print("leak cycles: warm-up \(warmUp["before"]?["rssKiB"] ?? nil) → \(warmUp["after"]?["rssKiB"] ?? nil) KiB; "
              + "measured \(before["rssKiB"] ?? nil) → \(after["rssKiB"] ?? nil) KiB resident, "
              + "\(before["heapKiB"] ?? nil) → \(after["heapKiB"] ?? nil) KiB in malloc's hands")
        XCTAssertLessThan(growth("heapKiB"), 4096, "1,000 navigate/back cycles grew the heap by \(growth("heapKiB")) KiB")
        XCTAssertLessThan(growth("rssKiB"), 4096, "1,000 navigate/back cycles grew memory by \(growth("rssKiB")) KiB")
        XCTAssertEqual(after["watches"], warmUp["before"]?["watches"], "a popped page left a watcher behind")
        XCTAssertEqual(after["rowItems"], before["rowItems"], "row items leaked")
        XCTAssertEqual(measured["after"]?["depth"], 2)
        XCTAssertEqual(app.finish(), 0)
    }

    /// The app's memory once the cycles' aftermath has gone: a thousand cycles are some 36,000
    /// messages on the accessibility bus (rows and pages added and removed, focus, states),
    /// queued in the app while a busy bus daemon and its clients catch up. Asked again, each time
    /// after an AT-SPI call the app answers, until the heap no longer shrinks (by 512 KiB).
    private func settled(_ app: AppDriver, _ client: AccessibilityClient) throws -> JSONValue {
        var stats = try app.send("stats")
        for _ in 0..<20 {
            _ = try client.find("frame", nil)
            let next = try app.send("stats")
            defer { stats = next }
            if (next["heapKiB"]?.intValue ?? 0) > (stats["heapKiB"]?.intValue ?? 0) - 512 { return next }
        }
        return stats
    }
}
