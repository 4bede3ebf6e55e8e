import Foundation
import TrellisCore
import XCTest

/// Plugins in the real window: both demo plugins load, the spinner is driven through the
/// network-activity plugin, and the status area shows the location plugin's updates.
final class PluginsWindowTests: XCTestCase {
    func testPluginsLoadDriveTheSpinnerAndShowTheLocation() throws {
        let app = try AppDriver(arguments: ["/plugins"])
        let screen = try app.dump { ($0["rows"]?.arrayValue?.count ?? 0) >= 2 }
        let rows = screen["rows"]?.arrayValue?.compactMap { $0["text"]?.stringValue } ?? []
        XCTAssertTrue(rows.contains { $0.hasPrefix("Network Activity · 1.0.0 · loaded") }, "\(rows)")
        XCTAssertTrue(rows.contains { $0.hasPrefix("Location · 1.0.0 · loaded") }, "\(rows)")
        try app.send("trigger network:on")
        XCTAssertEqual(try app.send("dump")["spinner"], true)
        try app.send("trigger network:off")
        XCTAssertEqual(try app.send("dump")["spinner"], false)
        let located = try app.dump(until: { $0["status"]?.stringValue?.hasPrefix("Location: ") == true }, timeout: 15)
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
        XCTAssertEqual(try helloProcesses(of: app, expecting: 1), 1)

        try app.send("toggle \(loaded.index)")
        let disabled = try row { $0.hasPrefix("Hello from C · 1.0.0 · disabled") }
        XCTAssertEqual(disabled.checkbox, false)
        XCTAssertEqual(try helloProcesses(of: app, expecting: 0), 0, "a disabled plugin's process ends")
        let settings = try String(contentsOf: app.configHome.appendingPathComponent("trellis/plugins.json"), encoding: .utf8)
        XCTAssertTrue(settings.contains("c-hello"), settings)
        try app.screenshot("plugins-disabled")

        try app.send("toggle \(disabled.index)")
        XCTAssertEqual(try row { $0.hasPrefix("Hello from C · 1.0.0 · loaded") }.checkbox, true)
        XCTAssertEqual(try helloProcesses(of: app, expecting: 1), 1)
        try app.send("trigger hello:ping")  // the new process answers
        XCTAssertEqual(app.finish(), 0)
    }

    /// The number of the app's plugin-host processes running c-hello, once it is `expected`
    /// (a process ends shortly after it is told to), or as it is after 10 s.
    private func helloProcesses(of app: AppDriver, expecting expected: Int) throws -> Int {
        var count = -1
        for _ in 0..<100 {
            let found = try CommandRunner.tool("pgrep", ["-P", "\(app.process.processIdentifier)", "-f", "trellis-plugin-host .* c-hello$"])
            count = found.stdout.split(separator: "\n").count
            if count == expected { break }
            Thread.sleep(forTimeInterval: 0.1)
        }
        return count
    }
}
