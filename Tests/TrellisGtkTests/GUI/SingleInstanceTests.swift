import Foundation
import TrellisCore
import TrellisTesting
import XCTest

/// A second `trellis PATH` hands PATH to the running window through the session bus and exits 0.
///
/// Each test registers its own application id (`--application-id`), so the first instance can
/// also take automation commands and tests never reach a Trellis the user is running.
final class SingleInstanceTests: XCTestCase {
    private let id = "io.github.trellis.Test.I\(UUID().uuidString.prefix(8))"

    override func setUpWithError() throws {
        try FakeBusService.requireSessionBus()
    }

    /// Launches a second instance with `arguments`; returns its exit status.
    private func secondLaunch(_ arguments: [String]) throws -> CommandResult {
        try CommandRunner.run(AppDriver.executable, ["--application-id", id] + arguments, timeout: testDeadlineSeconds)
    }

    func testASecondLaunchOpensItsPathInTheRunningWindowAndExitsZero() throws {
        let app = try AppDriver(arguments: ["--application-id", id])
        XCTAssertEqual(try app.send("dump")["path"], "/catalog")
        let second = try secondLaunch(["/people"])
        XCTAssertEqual(second.status, 0, second.stderr)
        XCTAssertEqual(try app.dump { $0["path"] == "/people" }["path"], "/people")
        let third = try secondLaunch(["/catalog/5"])
        XCTAssertEqual(third.status, 0, third.stderr)
        let screen = try app.dump { $0["path"] == "/catalog/5" }
        XCTAssertEqual(screen["title"], "Фэнтези")
        XCTAssertEqual(screen["depth"], 4, "each link is pushed, so Back returns to where the user was")
        XCTAssertEqual(app.finish(), 0)
    }

    func testLinksToPrivateOrMalformedPathsShowAMessageAndLeaveTheWindowAlone() throws {
        let app = try AppDriver(arguments: ["--application-id", id, "/people"])
        XCTAssertEqual(try app.send("dump")["path"], "/people")
        for (path, expected) in [("/events", "not a public route"), ("/catalog/../etc", "invalid path"), ("/nowhere", "no route matches")] {
            let second = try secondLaunch([path])
            XCTAssertEqual(second.status, 0, second.stderr)
            let screen = try app.dump { $0["message"]?.stringValue?.contains(path) ?? false }
            XCTAssertTrue(screen["message"]?.stringValue?.contains(expected) ?? false, "\(path): \(screen["message"] ?? .null)")
            XCTAssertEqual(screen["path"], "/people")
        }
        XCTAssertEqual(app.finish(), 0, "the running instance survived every bad link")
    }

    func testASecondLaunchWithANotificationRoutesItInTheRunningWindow() throws {
        let app = try AppDriver(arguments: ["--application-id", id])
        // Wait for the first instance to answer: it owns the id on the bus only once it runs,
        // and a second launch before that would become the primary itself.
        XCTAssertEqual(try app.send("dump")["path"], "/catalog")
        let payload = try DesktopWindowTests.payload(#"{"aps": {"alert": {"body": "x", "show-view": "/favourites"}, "badge": 2}}"#)
        defer { try? FileManager.default.removeItem(at: payload) }
        let second = try secondLaunch(["--notification", payload.path])
        XCTAssertEqual(second.status, 0, second.stderr)
        let screen = try app.dump { $0["badge"] == 2 && $0["path"] == "/favourites" }
        XCTAssertEqual(screen["title"], "Favourites (2)")
        XCTAssertEqual(app.finish(), 0)
    }

    func testAMalformedPayloadIsRefusedByTheSecondLaunchItself() throws {
        let app = try AppDriver(arguments: ["--application-id", id])
        XCTAssertEqual(try app.send("dump")["path"], "/catalog")
        let payload = try DesktopWindowTests.payload(#"{"aps": {"badge": "many"}}"#)
        defer { try? FileManager.default.removeItem(at: payload) }
        let second = try secondLaunch(["--notification", payload.path])
        XCTAssertNotEqual(second.status, 0)
        XCTAssertTrue(second.stderr.contains("\(payload.path): aps.badge must be an integer"), second.stderr)
        XCTAssertEqual(try app.send("dump")["badge"], 0)
        XCTAssertEqual(app.finish(), 0)
    }
}
