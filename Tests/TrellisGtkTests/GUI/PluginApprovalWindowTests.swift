import Foundation
import TrellisCore
import XCTest

/// A plugin the user installed in their own plugin folder asks before it runs: the Plugins
/// page lists what it asks for and an Approve button, which asks in a dialog that lists it in
/// full; confirming loads the plugin at once, Cancel leaves it waiting, and the next start
/// remembers the answer. Until then, no process of the plugin runs.
final class PluginApprovalWindowTests: XCTestCase {
    func testAnInstalledPluginWaitsForTheApproveButtonAndIsRememberedAfterwards() throws {
        let (home, environment) = try Self.installAsker()
        defer { try? FileManager.default.removeItem(at: home) }
        let folder = home.appendingPathComponent("data/trellis/plugins/asker")
        let readable = home.appendingPathComponent("shared-notes")
        let rowText = { (screen: JSONValue) in
            screen["rows"]?.arrayValue?.compactMap { $0["text"]?.stringValue }.first { $0.hasPrefix("Asker · 0.0.1") }
        }

        let app = try AppDriver(arguments: ["/plugins"], environment: environment)
        try app.waitForPlugins()
        let waiting = try app.dump { rowText($0)?.contains("waiting for approval") == true }
        XCTAssertEqual(rowText(waiting)?.hasPrefix("Asker · 0.0.1 · unapproved · waiting for approval: asks to read \(readable.path) (trellis plugins --approve ID, or Approve on the Plugins page)"), true,
                       "the row says what the plugin asks for and how to approve it: \(rowText(waiting) ?? "")")
        XCTAssertEqual(waiting["actions"], ["approve:asker"], "one Approve button, for the waiting plugin")
        XCTAssertEqual(try app.pluginProcesses("asker", expecting: 0), 0, "no process runs before the user approves")
        try app.screenshot("plugins-approval")

        // The button asks first, listing in full what the row cuts short; Cancel decides nothing.
        try app.send("page-action approve:asker")
        let asked = try app.dump { $0["dialog"] != .null }
        XCTAssertEqual(asked["dialog"]?["title"], "Let “Asker” run?")
        let details = asked["dialog"]?["details"]?.stringValue ?? ""
        XCTAssertTrue(details.hasPrefix("Asker 0.0.1, installed in \(folder.path), asks to:\n• read \(readable.path)\n\nIt runs in a process of its own, confined by: "), details)
        XCTAssertTrue(details.hasSuffix("Approve only a plugin you trust. You can disable it on this page at any time."), details)
        try app.screenshot("plugins-approval-question")
        try app.send("dialog-cancel")
        let cancelled = try app.dump { $0["dialog"] == .null }
        XCTAssertEqual(rowText(cancelled)?.contains("waiting for approval"), true, "Cancel approved nothing: \(rowText(cancelled) ?? "")")
        XCTAssertEqual(cancelled["actions"], ["approve:asker"])
        XCTAssertFalse(FileManager.default.fileExists(atPath: app.configHome.appendingPathComponent("trellis/plugin-approvals.json").path))
        XCTAssertEqual(try app.pluginProcesses("asker", expecting: 0), 0)

        try app.send("page-action approve:asker")
        _ = try app.dump { $0["dialog"] != .null }
        try app.send("dialog-accept")
        let approved = try app.dump { rowText($0)?.hasPrefix("Asker · 0.0.1 · loaded") == true }
        XCTAssertEqual(approved["actions"], [], "the Approve button goes once the plugin is approved")
        XCTAssertEqual(try app.pluginProcesses("asker", expecting: 1), 1, "approved, the plugin runs without a restart")
        let approvals = try String(contentsOf: app.configHome.appendingPathComponent("trellis/plugin-approvals.json"), encoding: .utf8)
        XCTAssertTrue(approvals.contains("\"read \(readable.path)\""), approvals)
        XCTAssertEqual(app.finish(), 0)

        // The answer is remembered: the next start loads the plugin without asking.
        let again = try AppDriver(arguments: ["/plugins"], environment: environment)
        try again.waitForPlugins()
        let remembered = try again.dump { rowText($0)?.hasPrefix("Asker · 0.0.1 · loaded") == true }
        XCTAssertEqual(remembered["actions"], [])
        XCTAssertEqual(again.finish(), 0)
    }

    /// As a person with a screen reader and a keyboard meets it: the question is a window of
    /// its own named by the question, its details are read in full, Escape cancels, and the
    /// keyboard reaches Approve.
    func testTheQuestionIsReadAndAnsweredWithTheKeyboard() throws {
        let (home, environment) = try Self.installAsker()
        defer { try? FileManager.default.removeItem(at: home) }
        let app = try AppDriver(arguments: ["/plugins"], environment: environment)
        try app.waitForPlugins()
        try app.dump { $0["actions"] == ["approve:asker"] }
        let client = try AccessibilityClient(app)
        let input = try RealInput(windowTitled: "^Plugins$")
        try input.click(try client.find("push button", "Approve Asker")["extents"])
        let question = "Let “Asker” run?"
        try app.dump { $0["dialog"] != .null }
        XCTAssertEqual(try client.send(["op": "windows"])["names"], ["Plugins", .string(question)])
        XCTAssertEqual(try client.find("dialog", question)["states"]?.arrayValue?.contains("modal"), true)
        let details = try client.find("label", containing: "asks to:", within: question)
        XCTAssertEqual(details["text"]?.stringValue?.contains("asks to:\n• read \(home.path)/shared-notes\n"), true, "\(details)")
        XCTAssertEqual(try client.send(["op": "classNames", "within": .string(question)])["nodes"], [], "no GTK class names are read")
        // Cancel has the focus: Enter or Escape decides nothing.
        let focused = try client.send(["op": "focused", "within": .string(question)])
        XCTAssertEqual(focused["name"], "Cancel")
        XCTAssertEqual(focused["role"], "push button")
        try input.press("Escape")
        let cancelled = try app.dump { $0["dialog"] == .null }
        XCTAssertEqual(cancelled["actions"], ["approve:asker"], "Escape approved nothing")

        // Asked again, Tab reaches Approve, and Enter presses it.
        try input.click(try client.find("push button", "Approve Asker")["extents"])
        try app.dump { $0["dialog"] != .null }
        try input.press("Tab")
        try client.find("push button", "Approve", within: question, until: { $0["states"]?.arrayValue?.contains("focused") == true })
        try input.press("Return")
        try app.dump { $0["actions"] == [] && $0["dialog"] == .null }
        XCTAssertEqual(try app.pluginProcesses("asker", expecting: 1), 1)
        XCTAssertEqual(app.finish(), 0)
    }

    /// A folder with the user's data and settings folders, and in the user's plugin folder a
    /// C plugin "asker" that asks to read `shared-notes` beside them; the environment that
    /// makes them the app's.
    static func installAsker() throws -> (home: URL, environment: [String: String]) {
        let home = FileManager.default.temporaryDirectory.appendingPathComponent("trellis-approval-\(UUID().uuidString)")
        let readable = home.appendingPathComponent("shared-notes")
        let folder = home.appendingPathComponent("data/trellis/plugins/asker")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        try FileManager.default.createDirectory(at: readable, withIntermediateDirectories: true)
        try Data("""
            {"id": "asker", "name": "Asker", "version": "0.0.1", "abiVersion": 2, "library": "libasker.so",
             "permissions": {"files": {"\(readable.path)": "read"}}}
            """.utf8).write(to: folder.appendingPathComponent("plugin.json"))
        let source = home.appendingPathComponent("asker.c")
        try Data("""
            #include "trellis_plugin.h"
            static const trellis_plugin_info info = { TRELLIS_PLUGIN_ABI_VERSION, sizeof (trellis_plugin_info), 0 };
            const trellis_plugin_info *trellis_plugin_entry (const trellis_host_api *host) { (void) host; return &info; }
            """.utf8).write(to: source)
        try CPlugin.compile(source, to: folder.appendingPathComponent("libasker.so"))
        return (home, ["XDG_DATA_HOME": home.appendingPathComponent("data").path,
                       "XDG_CONFIG_HOME": home.appendingPathComponent("config").path])
    }
}
