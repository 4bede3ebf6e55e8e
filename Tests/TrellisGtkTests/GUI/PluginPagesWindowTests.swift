import Foundation
import TrellisCore
import XCTest

/// Pages plugins contribute, in the window: the Location plugin's live history (Swift, through
/// the SDK) and a C plugin's table of 1,000,000 rows served by range, which then crashes —
/// the page shows why with a Restart button, and the window goes on.
final class PluginPagesWindowTests: XCTestCase {
    func testTheLocationHistoryPageIsInTheMenuAndGrowsLive() throws {
        let app = try AppDriver(path: "/")
        let items = try XCTUnwrap(try app.send("menu")["items"]?.arrayValue)
        let history = try XCTUnwrap(items.first { $0["label"] == "Location History" }, "\(items)")
        try app.send("action \(try XCTUnwrap(history["action"]?.stringValue))")
        let page = try app.dump { $0["title"] == "Location History" && ($0["rows"]?.arrayValue?.count ?? 0) >= 2 }
        let first = try XCTUnwrap(page["rows"]?[0]?["text"]?.stringValue)
        XCTAssertTrue(first.contains("±"), "a position with its accuracy: \(first)")
        try app.screenshot("plugin-page-location-history")
        // The plugin adds a row at the top at each update (every 2 s in the demo).
        let count = page["rows"]?.arrayValue?.count ?? 0
        let grown = try app.dump(until: { ($0["rows"]?.arrayValue?.count ?? 0) > count })
        // Its command placed on the page: Clear empties the history (new positions come after).
        XCTAssertEqual(grown["actions"], ["plugin-location-clear-history"], "\(grown)")
        let before = grown["rows"]?.arrayValue?.count ?? 0
        try app.send("page-action plugin-location-clear-history")
        _ = try app.dump(until: { ($0["rows"]?.arrayValue?.count ?? 99) < min(before, 2) })
        XCTAssertEqual(app.finish(), 0)
    }

    func testTheCPluginsCommandOpensItsPage() throws {
        let app = try AppDriver(path: "/")
        let items = try XCTUnwrap(try app.send("menu")["items"]?.arrayValue)
        let greet = try XCTUnwrap(items.first { $0["label"] == "Say Hello from C" }, "\(items)")
        XCTAssertEqual(greet["accels"], ["<Shift><Control>h"], "\(greet)")
        try app.send("action win.plugin-c-hello-greet")
        let page = try app.dump { $0["title"] == "Hello from C" && $0["text"]?.stringValue?.hasPrefix("Hello from C!") == true }
        XCTAssertEqual(page["path"], "/hello")
        XCTAssertEqual(app.finish(), 0)
    }

    func testPreferencesShowThePluginsSettingsAndApplyThemAtOnce() throws {
        let app = try AppDriver(path: "/")
        try app.send("action win.preferences")
        let page = try app.dump { $0["title"] == "Preferences" && $0["fields"]?["location/decimals"] != nil }
        XCTAssertEqual(page["fields"]?["location/decimals"], "5", "\(page)")
        try app.screenshot("plugin-settings")
        try app.send("field location/decimals 3")
        _ = try app.dump(until: { $0["status"]?.stringValue?.contains(#/Location: -?\d+\.\d{3}, /#) == true })
        let stored = app.home.appendingPathComponent("config/trellis/plugin-settings/location.json")
        XCTAssertEqual(try JSONValue(jsonData: Data(contentsOf: stored))["decimals"], 3)
        XCTAssertEqual(app.finish(), 0)

        // After a restart the setting is still 3, on the page and in what the plugin shows.
        let again = try AppDriver(path: "/settings", environment: ["XDG_CONFIG_HOME": app.home.appendingPathComponent("config").path])
        let reopened = try again.dump { $0["fields"]?["location/decimals"] != nil }
        XCTAssertEqual(reopened["fields"]?["location/decimals"], "3", "\(reopened)")
        _ = try again.dump(until: { $0["status"]?.stringValue?.contains(#/Location: -?\d+\.\d{3}, /#) == true })
        XCTAssertEqual(again.finish(), 0)
    }

    func testAMillionRowPageOfACPluginAndItsCrash() throws {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("trellis-pages-\(UUID().uuidString)")
        let folder = root.appendingPathComponent("big")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: root) }
        // Where the plugin leaves its marker: a folder granted to it (it cannot write elsewhere).
        let signals = root.appendingPathComponent("signals")
        try FileManager.default.createDirectory(at: signals, withIntermediateDirectories: true)
        try Data("""
            {"id": "big", "name": "Big Table", "version": "1", "abiVersion": 2, "library": "libbig.so",
             "permissions": {"files": {"\(signals.path)": "read-write"}},
             "routes": [{"pattern": "/big", "title": "A Million Rows", "content": "table", "public": true}],
             "commands": [{"id": "crash", "title": "Crash the Big Table"}, {"id": "grow", "title": "Grow the Big Table"}]}
            """.utf8).write(to: folder.appendingPathComponent("plugin.json"))
        let source = folder.appendingPathComponent("big.c")
        let marker = signals.appendingPathComponent("crash-on-open")
        try Data(("#define MARKER \"\(marker.path)\"\n" + #"""
            #include <stdio.h>
            #include <stdlib.h>
            #include <string.h>
            #include "trellis_plugin.h"
            static const trellis_host_api *host;
            static long last_page = -1, inserted = 0;  /* rows inserted above row 0 by "grow" */
            static long number (const char *json, const char *key) {
              const char *at = strstr (json, key);
              if (!at) return -1;
              at += strlen (key);
              while (*at == '"' || *at == ' ' || *at == ':') at++;
              return strtol (at, 0, 10);
            }
            static void on_page (void *u, const char *message, const char *data) {
              (void) u;
              char *json = malloc (100000);
              long page = number (data, "\"page\"");
              if (strcmp (message, "big:page:open") == 0) {
                if (fopen (MARKER, "r")) *(volatile int *) 0 = 1;
                last_page = page;
                sprintf (json, "{\"page\": %ld, \"table\": {\"count\": %ld}}", page, 1000000 + inserted);
                host->trigger (host->context, "big:page:show", json);
              } else if (strcmp (message, "big:page:fetch") == 0) {
                long start = number (data, "\"start\""), count = number (data, "\"count\"");
                char *end = json + sprintf (json, "{\"page\": %ld, \"start\": %ld, \"rows\": [", page, start);
                for (long i = start; i < start + count; i++)
                  end += sprintf (end, "%s[\"Row %ld\", \"%ld squared is %ld\"]", i > start ? ", " : "", i - inserted, i - inserted, (i - inserted) * (i - inserted));
                strcpy (end, "]}");
                host->trigger (host->context, "big:page:rows", json);
              } else if (strcmp (message, "big:command") == 0 && strstr (data, "\"grow\"")) {
                inserted += 1;
                sprintf (json, "{\"page\": %ld, \"changes\": [{\"insert\": [0, 1]}], \"count\": %ld}", last_page, 1000000 + inserted);
                host->trigger (host->context, "big:page:changed", json);
              } else if (strcmp (message, "big:command") == 0) {
                fclose (fopen (MARKER, "w"));
                *(volatile int *) 0 = 1;
              }
              free (json);
            }
            static const trellis_plugin_info info = { TRELLIS_PLUGIN_ABI_VERSION, sizeof (trellis_plugin_info), 0 };
            const trellis_plugin_info *trellis_plugin_entry (const trellis_host_api *h) {
              host = h;
              host->watch (host->context, "big:page:*", on_page, 0, 0);
              host->watch (host->context, "big:command", on_page, 0, 0);
              return &info;
            }
            """#).utf8).write(to: source)
        try CPlugin.compile(source, to: folder.appendingPathComponent("libbig.so"))

        let app = try AppDriver(arguments: ["--plugin-dir", root.path], path: "/big")
        let page = try app.dump { $0["title"] == "A Million Rows" && $0["rows"]?[0]?["text"]?.stringValue?.hasPrefix("Row 0") == true }
        XCTAssertEqual(page["rows"]?[1]?["text"]?.stringValue, "Row 1 · 1 squared is 1", "\(page)")
        try app.screenshot("plugin-page-million-rows")

        // A live insert at the top of the million rows: one row more, above the rows on screen
        // (GTK keeps the row the view was showing first where it was).
        try app.send("action win.plugin-big-grow")
        let grown = try app.dump { $0["count"] == 1_000_001 }
        let first = grown["rows"]?[0]
        XCTAssertEqual(first?["position"], 1, "\(grown)")
        XCTAssertEqual(first?["text"]?.stringValue, "Row 0 · 0 squared is 0", "\(grown)")

        // The command crashes the plugin and leaves a marker that makes opening the page crash
        // it again: restarted at once, the page asks again, and that crash is the page's own
        // doing — so the page stops asking, says why, offers Restart, and the window goes on.
        try app.send("action win.plugin-big-crash")
        let failed = try app.dump(until: { $0["text"]?.stringValue?.contains("killed by signal 11 (SIGSEGV)") == true
            && $0["actions"] == ["restart"] }, timeout: 30)
        XCTAssertTrue(failed["text"]?.stringValue?.hasPrefix("The plugin “Big Table” stopped") == true, "\(failed)")
        XCTAssertEqual(failed["title"], "A Million Rows", "the window goes on, on the same page")
        try app.screenshot("plugin-page-crashed")

        try FileManager.default.removeItem(at: marker)
        try app.send("page-action restart")
        _ = try app.dump { $0["rows"]?[0]?["text"]?.stringValue?.hasPrefix("Row 0") == true }
        XCTAssertEqual(app.finish(), 0)
    }
}
