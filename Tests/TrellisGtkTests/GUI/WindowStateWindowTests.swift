import Foundation
import TrellisCore
import XCTest

/// The window opens at the size it had when it was last closed.
final class WindowStateWindowTests: XCTestCase {
    private let config = FileManager.default.temporaryDirectory.appendingPathComponent("trellis-config-\(UUID().uuidString)")
    private var stateFile: URL { config.appendingPathComponent("trellis/window-state.json") }

    override func tearDown() {
        try? FileManager.default.removeItem(at: config)
    }

    private func savedState() throws -> JSONValue {
        try JSONValue(jsonData: Data(contentsOf: stateFile), source: stateFile.path)
    }

    func testTheSizeIsSavedAtQuitAndRestoredAtTheNextLaunch() throws {
        let first = try AppDriver(environment: ["XDG_CONFIG_HOME": config.path])
        let initial = try first.send("dump")
        try first.send("resize 900 560")
        let resized = try first.send("dump")
        XCTAssertEqual(resized["width"]?.intValue, (initial["width"]?.intValue ?? 0) + 180, "the window follows its new size")
        try first.send("quit")
        XCTAssertEqual(first.finish(), 0)
        XCTAssertEqual(try savedState(), ["width": 900, "height": 560, "maximized": false])

        let second = try AppDriver(environment: ["XDG_CONFIG_HOME": config.path])
        let restored = try second.send("dump")
        XCTAssertEqual(restored["width"], resized["width"])
        XCTAssertEqual(restored["height"], resized["height"])
        XCTAssertEqual(second.finish(), 0, "closing standard input quits; the state is saved again")
        XCTAssertEqual(try savedState(), ["width": 900, "height": 560, "maximized": false])
    }

    func testADamagedStateFileOpensTheDefaultSizeAndIsReplaced() throws {
        try FileManager.default.createDirectory(at: stateFile.deletingLastPathComponent(), withIntermediateDirectories: true)
        try Data(#"{"width": "wide"}"#.utf8).write(to: stateFile)
        let app = try AppDriver(environment: ["XDG_CONFIG_HOME": config.path])
        let screen = try app.send("dump")
        XCTAssertGreaterThan(screen["width"]?.intValue ?? 0, 600, "the default size, not a broken one")
        XCTAssertEqual(app.finish(), 0)
        XCTAssertEqual(try savedState(), ["width": 720, "height": 640, "maximized": false])
    }
}
