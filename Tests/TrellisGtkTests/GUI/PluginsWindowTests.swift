import Foundation
import TrellisCore
import XCTest

/// Plugins in the real window: both demo plugins load, the spinner is driven through the
/// network-activity plugin, and the status area shows the location plugin's updates.
final class PluginsWindowTests: XCTestCase {
    func testPluginsLoadDriveTheSpinnerAndShowTheLocation() throws {
        let app = try AppDriver(arguments: ["/plugins"])
        // Listed at once from their manifests, loaded once the window's first frame is on screen.
        let texts = { (screen: JSONValue) in screen["rows"]?.arrayValue?.compactMap { $0["text"]?.stringValue } ?? [] }
        try app.waitForPlugins()
        let screen = try app.dump { screen in
            ["Network Activity", "Location"].allSatisfy { name in texts(screen).contains { $0.hasPrefix("\(name) · 1.0.0 · loaded") } }
        }
        let rows = texts(screen)
        XCTAssertTrue(rows.contains { $0.hasPrefix("Network Activity · 1.0.0 · loaded") }, "\(rows)")
        XCTAssertTrue(rows.contains { $0.hasPrefix("Location · 1.0.0 · loaded") }, "\(rows)")
        // NetworkActivity answers from its own process: its activity:changed comes a moment later.
        try app.send("trigger network:on")
        XCTAssertEqual(try app.dump { $0["spinner"] == true }["spinner"], true)
        try app.send("trigger network:off")
        XCTAssertEqual(try app.dump { $0["spinner"] == false }["spinner"], false)
        let located = try app.dump(until: { $0["status"]?.stringValue?.hasPrefix("Location: ") == true })
        XCTAssertNotNil(located["status"]?.stringValue?.range(of: #"^Location: -?\d+\.\d{5}, -?\d+\.\d{5} ±\d+ m$"#, options: .regularExpression),
                        "\(located["status"] ?? nil)")
        try app.screenshot("plugins")
        XCTAssertEqual(app.finish(), 0)
    }

    /// c-hello runs in a process of its own (the app ships it without asking to run inside).
    func testUntickingAPluginEndsItsProcessAndTickingStartsItAgainWithoutARestart() throws {
        let app = try AppDriver(arguments: ["/plugins"])
        func row(_ condition: @escaping (String) -> Bool) throws -> (index: Int, checkbox: JSONValue?) {
            let screen = try app.dump { $0["rows"]?.arrayValue?.contains { condition($0["text"]?.stringValue ?? "") } == true }
            let rows = screen["rows"]?.arrayValue ?? []
            let index = try XCTUnwrap(rows.firstIndex { condition($0["text"]?.stringValue ?? "") })
            return (index, rows[index]["checkbox"] ?? nil)
        }
        let loaded = try row { $0.hasPrefix("Hello from C · 1.0.0 · loaded") }
        XCTAssertEqual(loaded.checkbox, true)
        XCTAssertEqual(try app.pluginProcesses("c-hello", expecting: 1), 1)

        try app.send("toggle \(loaded.index)")
        let disabled = try row { $0.hasPrefix("Hello from C · 1.0.0 · disabled") }
        XCTAssertEqual(disabled.checkbox, false)
        XCTAssertEqual(try app.pluginProcesses("c-hello", expecting: 0), 0, "a disabled plugin's process ends")
        let settings = try String(contentsOf: app.configHome.appendingPathComponent("trellis/plugins.json"), encoding: .utf8)
        XCTAssertTrue(settings.contains("c-hello"), settings)
        try app.screenshot("plugins-disabled")

        try app.send("toggle \(disabled.index)")
        XCTAssertEqual(try row { $0.hasPrefix("Hello from C · 1.0.0 · loaded") }.checkbox, true)
        XCTAssertEqual(try app.pluginProcesses("c-hello", expecting: 1), 1)
        try app.send("trigger hello:ping")  // the new process answers
        XCTAssertEqual(app.finish(), 0)
    }

    /// A plugin that triggers 300,000 events as fast as it can, with the event log open (a
    /// main-thread watcher of every event): before the call budget, the window answered its
    /// next command after 42 s; now the flood reaches the bus at 500 calls a second and the
    /// window keeps answering (the driver's limit per command, `testDeadlineSeconds`, 30 s, is
    /// the test's only clock).
    func testAFloodingPluginDoesNotStarveTheWindow() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("trellis-flood-\(UUID().uuidString)/flood")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder.deletingLastPathComponent()) }
        try Data(#"{"id": "flood", "name": "Flood", "version": "0.0.1", "abiVersion": 2, "library": "libflood.so", "permissions": {}}"#.utf8)
            .write(to: folder.appendingPathComponent("plugin.json"))
        let source = folder.appendingPathComponent("flood.c")
        try Data("""
            #include "trellis_plugin.h"
            static const trellis_host_api *host;
            static void go (void *u, const char *m, const char *j) {
              (void) u; (void) m; (void) j;
              for (int i = 0; i < 300000; i++) host->trigger (host->context, "flood:tick", "{\\"n\\": 1}");
            }
            static const trellis_plugin_info info = { TRELLIS_PLUGIN_ABI_VERSION, sizeof (trellis_plugin_info), 0 };
            const trellis_plugin_info *trellis_plugin_entry (const trellis_host_api *h) {
              host = h;
              host->watch (host->context, "flood:go", go, 0, 0);
              return &info;
            }
            """.utf8).write(to: source)
        try CPlugin.compile(source, to: folder.appendingPathComponent("libflood.so"))

        let app = try AppDriver(arguments: ["--plugin-dir", folder.deletingLastPathComponent().path], path: "/")
        try app.send("action win.go-events")
        try app.send("trigger flood:go")
        for _ in 0..<5 {
            let screen = try app.send("dump")  // fails after 30 s without an answer
            XCTAssertEqual(screen["title"], "Event log")
            Thread.sleep(forTimeInterval: 0.5)
        }
        XCTAssertEqual(app.finish(), 0)
    }
}
