import Foundation
import TrellisCore
import XCTest

/// A plugin built from the header alone contributes commands in its manifest: they show in the
/// window's menu with their shortcuts (unless one of the app's actions has it: New note's
/// Ctrl+N, Preferences' Ctrl+,), and choosing one runs the
/// plugin's code, in its own process, which here opens the catalog.
final class PluginCommandsWindowTests: XCTestCase {
    func testAPluginsCommandsShowInTheMenuAndRunThePlugin() throws {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("trellis-commands-\(UUID().uuidString)")
        let folder = root.appendingPathComponent("greeter")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: root) }
        try Data("""
            {"id": "greeter", "name": "Greeter", "version": "0.1.0", "abiVersion": 2, "library": "libgreeter.so",
             "permissions": {},
             "commands": [{"id": "catalog", "title": "Show the Catalog", "accelerator": "<Control><Shift>k"},
                          {"id": "steal", "title": "Steal New Note", "accelerator": "<Control>n"},
                          {"id": "steal-preferences", "title": "Steal Preferences", "accelerator": "<Control>comma"}]}
            """.utf8).write(to: folder.appendingPathComponent("plugin.json"))
        let source = folder.appendingPathComponent("greeter.c")
        try Data("""
            #include <string.h>
            #include "trellis_plugin.h"
            static const trellis_host_api *host;
            static void on_command (void *u, const char *m, const char *data) {
              (void) u; (void) m;
              if (strstr (data, "\\"catalog\\"")) host->navigate (host->context, "/catalog", 0);
            }
            static const trellis_plugin_info info = { TRELLIS_PLUGIN_ABI_VERSION, sizeof (trellis_plugin_info), 0 };
            const trellis_plugin_info *trellis_plugin_entry (const trellis_host_api *h) {
              host = h;
              host->watch (host->context, "greeter:command", on_command, 0, 0);
              return &info;
            }
            """.utf8).write(to: source)
        try CPlugin.compile(source, to: folder.appendingPathComponent("libgreeter.so"))

        let app = try AppDriver(arguments: ["--plugin-dir", root.path], path: "/")
        let items = try XCTUnwrap(try app.send("menu")["items"]?.arrayValue)
        let show = try XCTUnwrap(items.first { $0["label"] == "Show the Catalog" }, "\(items)")
        XCTAssertEqual(show["action"], "win.plugin-greeter-catalog")
        XCTAssertEqual(show["accels"]?.arrayValue?.count, 1, "\(show)")
        let steal = try XCTUnwrap(items.first { $0["label"] == "Steal New Note" }, "\(items)")
        XCTAssertEqual(steal["accels"], [], "Ctrl+N stays the app's")
        let newNote = try XCTUnwrap(items.first { $0["action"] == "win.new-note" })
        XCTAssertEqual(newNote["accels"], ["<Control>n"])
        let stealPreferences = try XCTUnwrap(items.first { $0["label"] == "Steal Preferences" }, "\(items)")
        XCTAssertEqual(stealPreferences["accels"], [], "Ctrl+, stays the app's (Preferences)")
        let preferences = try XCTUnwrap(items.first { $0["action"] == "win.preferences" }, "\(items)")
        XCTAssertEqual(preferences["accels"], ["<Control>comma"])
        XCTAssertEqual(try app.send("dump")["title"], "Trellis")

        try app.send("action win.plugin-greeter-catalog")

        let catalog = try app.dump { $0["title"] == "Catalog" }
        XCTAssertEqual(catalog["title"], "Catalog", "the plugin's command opened the catalog")
        try app.screenshot("plugin-commands")

        // Disabled, the plugin's commands are greyed out; enabled again, they come back.
        func showEnabled() throws -> JSONValue? {
            try app.send("menu")["items"]?.arrayValue?.first { $0["label"] == "Show the Catalog" }?["enabled"] ?? nil
        }
        XCTAssertEqual(try showEnabled(), true)
        try app.send("go /plugins")
        let rows = try app.dump { $0["rows"]?.arrayValue?.contains { $0["text"]?.stringValue?.hasPrefix("Greeter · 0.1.0 · loaded") == true } == true }
        let index = try XCTUnwrap(rows["rows"]?.arrayValue?.firstIndex { $0["text"]?.stringValue?.hasPrefix("Greeter") == true })
        try app.send("toggle \(index)")
        _ = try app.dump { $0["rows"]?[index]?["text"]?.stringValue?.hasPrefix("Greeter · 0.1.0 · disabled") == true }
        XCTAssertEqual(try showEnabled(), false)
        try app.send("toggle \(index)")
        _ = try app.dump { $0["rows"]?[index]?["text"]?.stringValue?.hasPrefix("Greeter · 0.1.0 · loaded") == true }
        XCTAssertEqual(try showEnabled(), true)
        XCTAssertEqual(app.finish(), 0)
    }
}
