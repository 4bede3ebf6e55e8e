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
        // The first round warms GTK's caches (CSS, glyphs, renderer). A leak grows memory in every
        // round after it; something that grows once (a cache filling, the accessibility bus
        // catching up late on a loaded machine: 5 MiB once in a CI run, flat in the others) grows one
        // round only. So two rounds are measured, and the smaller growth must stay small.
        let warmUp = try app.send("cycle 1000", timeout: 120)
        var rounds: [(before: JSONValue, measured: JSONValue, after: JSONValue)] = []
        for _ in 0..<2 {
            let before = try settled(app, client)
            let measured = try app.send("cycle 1000", timeout: 120)
            rounds.append((before, measured, try settled(app, client)))
        }
        let growth = { (key: String) -> Int in
            rounds.map { ($0.after[key]?.intValue ?? 0) - ($0.before[key]?.intValue ?? 0) }.min() ?? 0
        }
        let (before, measured, after) = (rounds[0].before, rounds[1].measured, rounds[1].after)
        print("leak cycles: warm-up \(warmUp["before"]?["rssKiB"] ?? nil) → \(warmUp["after"]?["rssKiB"] ?? nil) KiB; "
              + rounds.map { "measured \($0.before["rssKiB"] ?? nil) → \($0.after["rssKiB"] ?? nil) KiB resident, "
                  + "\($0.before["heapKiB"] ?? nil) → \($0.after["heapKiB"] ?? nil) KiB in malloc's hands" }.joined(separator: "; "))
        XCTAssertLessThan(growth("heapKiB"), 4096, "each of two rounds of 1,000 navigate/back cycles grew the heap by \(growth("heapKiB")) KiB or more")
        XCTAssertLessThan(growth("rssKiB"), 4096, "each of two rounds of 1,000 navigate/back cycles grew memory by \(growth("rssKiB")) KiB or more")
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
