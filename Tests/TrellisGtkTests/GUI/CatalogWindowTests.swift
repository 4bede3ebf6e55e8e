import Foundation
import TrellisTesting
import XCTest

/// The real `trellis` window under a display: first frame, catalog rows on screen, screenshots.
final class CatalogWindowTests: XCTestCase {
    func testTheWindowShowsCyrillicCatalogRowsAfterTheFirstFrame() throws {
        let app = try AppDriver()
        let rows = try app.visibleRowTexts()
        XCTAssertGreaterThan(rows.count, 5, "the catalog should fill the window")
        XCTAssertEqual(rows.first, "Любовные романы", "the first line of data/catalog-genres.ru.txt")
        XCTAssertTrue(rows.contains("Фэнтези"))
        let count = try app.send("dump")["count"]?.intValue
        XCTAssertEqual(count, 214, "every line of the catalog, duplicates included, is a row")
        let shot = try app.screenshot("catalog")
        let size = (try FileManager.default.attributesOfItem(atPath: shot)[.size] as? Int) ?? 0
        XCTAssertGreaterThan(size, 10_000, "a screenshot of a whole window is not a few bytes")
        XCTAssertEqual(app.finish(), 0)
    }

    func testSyntheticRowsAreServedByTheSameVirtualModel() throws {
        let app = try AppDriver(arguments: ["--rows", "1000000"])
        let reply = try app.send("dump")
        XCTAssertEqual(reply["count"]?.intValue, 1_000_000)
        let rows = try app.visibleRowTexts()
        XCTAssertEqual(Array(rows.prefix(3)), ["row 0", "row 1", "row 2"])
        XCTAssertLessThan(rows.count, 100, "only the visible rows have widgets")
        XCTAssertEqual(app.finish(), 0)
    }

    func testExitAfterFirstFrameQuitsWithStatusZero() throws {
        try AppDriver.requireDisplay()
        let process = Process()
        process.executableURL = AppDriver.executable
        process.arguments = ["/catalog", "--rows", "1000", "--exit-after-first-frame"]
        // Its own data folder, as AppDriver gives every app: the user's store may belong to a newer model.
        let home = FileManager.default.temporaryDirectory.appendingPathComponent("trellis-gui-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: home) }
        process.environment = ProcessInfo.processInfo.environment.merging(
            ["XDG_DATA_HOME": home.appendingPathComponent("data").path, "XDG_CONFIG_HOME": home.appendingPathComponent("config").path]
        ) { _, new in new }
        try process.runOneAtATime()
        let deadline = Date().addingTimeInterval(30)
        while process.isRunning && Date() < deadline { usleep(20_000) }
        XCTAssertFalse(process.isRunning, "trellis did not quit after its first frame")
        if process.isRunning { process.terminate() }
        XCTAssertEqual(process.terminationStatus, 0)
    }
}
