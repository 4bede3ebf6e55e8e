import Foundation
import XCTest

/// The window leaves its plugins until its first frame is on screen, so that no plugin delays
/// it, and begins syncing once they are loaded, so that the network-activity plugin sees the
/// first pass too.
final class PluginStartupWindowTests: XCTestCase {
    func testTheFirstFrameComesBeforeAnyPluginLoads() throws {
        try AppDriver.requireDisplay()
        let home = FileManager.default.temporaryDirectory.appendingPathComponent("trellis-first-frame-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: home) }
        // --exit-after-first-frame quits at that frame: the plugins, left until after it, never load.
        let run = try CommandRunner.run(AppDriver.executable, ["/", "--exit-after-first-frame"], environment: [
            "XDG_DATA_HOME": home.appendingPathComponent("data").path,
            "XDG_CONFIG_HOME": home.appendingPathComponent("config").path,
            "GSETTINGS_BACKEND": "memory", "NO_AT_BRIDGE": "1", "TRELLIS_LOG_LEVEL": "info",
        ])
        XCTAssertEqual(run.status, 0, run.stderr)
        XCTAssertTrue(run.stdout.contains("first-frame-monotonic-us: "), run.stdout)
        XCTAssertFalse(run.stderr.contains("loaded plugin"), "a plugin loaded before the first frame:\n\(run.stderr)")

        // Kept open, the window loads them: the Location plugin's status item appears.
        let app = try AppDriver(path: "/", environment: ["TRELLIS_LOG_LEVEL": "info"])
        try app.dump(until: { $0["status"]?.stringValue?.contains("Location: ") == true }, timeout: 20)
        XCTAssertEqual(app.finish(), 0)
    }

    /// Opening on the home page, the window reads no plugin manifest before its first frame:
    /// a broken one is reported only after it. Opening on another path, which may be a
    /// plugin's page, it reads them first. Found after the first frame, the plugins are all
    /// there: the broken one is listed as failed beside the shipped ones.
    func testOnTheHomePageThePluginsAreFoundAfterTheFirstFrame() throws {
        try AppDriver.requireDisplay()
        let home = FileManager.default.temporaryDirectory.appendingPathComponent("trellis-found-later-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: home) }
        let plugins = home.appendingPathComponent("plugins")
        try FileManager.default.createDirectory(at: plugins.appendingPathComponent("broken"), withIntermediateDirectories: true)
        try Data(#"{"id": "broken", "name": "#.utf8).write(to: plugins.appendingPathComponent("broken/plugin.json"))
        let environment = [
            "XDG_DATA_HOME": home.appendingPathComponent("data").path,
            "XDG_CONFIG_HOME": home.appendingPathComponent("config").path,
            "GSETTINGS_BACKEND": "memory", "NO_AT_BRIDGE": "1",
        ]
        for path in [[], ["/"]] {
            let run = try CommandRunner.run(AppDriver.executable, path + ["--exit-after-first-frame", "--plugin-dir", plugins.path],
                                            environment: environment)
            XCTAssertEqual(run.status, 0, run.stderr)
            XCTAssertTrue(run.stdout.contains("first-frame-monotonic-us: "), run.stdout)
            XCTAssertFalse(run.stderr.contains("plugin broken"), "\(path): a manifest was read before the first frame:\n\(run.stderr)")
        }
        let catalog = try CommandRunner.run(AppDriver.executable, ["/catalog", "--exit-after-first-frame", "--plugin-dir", plugins.path],
                                            environment: environment)
        XCTAssertEqual(catalog.status, 0, catalog.stderr)
        XCTAssertTrue(catalog.stderr.contains("plugin broken") && catalog.stderr.contains("not valid JSON"), catalog.stderr)

        let app = try AppDriver(arguments: ["--plugin-dir", plugins.path], path: "/")
        try app.send("navigate /plugins")
        let rows = try XCTUnwrap(app.send("dump")["rows"]?.arrayValue).compactMap { $0["text"]?.stringValue }
        XCTAssertTrue(rows.contains { $0.hasPrefix("broken · ? · failed") }, "\(rows)")
        XCTAssertTrue(rows.contains { $0.hasPrefix("Location · ") } && rows.contains { $0.hasPrefix("Template · ") }, "\(rows)")
        XCTAssertEqual(app.finish(), 0)
    }

    func testTheFirstSyncPassIsAmongTheRecentRequests() throws {
        let work = FileManager.default.temporaryDirectory.appendingPathComponent("trellis-first-sync-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: work) }
        let server = try StaticHTTPServer(serving: try StaticHTTPServer.emptyNotes(in: work))
        let app = try AppDriver(arguments: ["--server", server.url], path: "/")
        let items = try XCTUnwrap(try app.send("menu")["items"]?.arrayValue)
        let requests = try XCTUnwrap(items.first { $0["label"] == "Network Requests" }, "\(items)")
        try app.send("action \(try XCTUnwrap(requests["action"]?.stringValue))")
        // The passes come every 30 s: within the 20 s waited here, only the first one can show.
        let page = try app.dump(until: { screen in
            screen["rows"]?.arrayValue?.contains { $0["text"]?.stringValue?.contains("\(server.url)/notes") == true } == true
        }, timeout: 20)
        XCTAssertEqual(page["title"], "Network Requests", "\(page)")
        XCTAssertEqual(app.finish(), 0)
    }
}
