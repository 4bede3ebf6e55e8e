import Foundation
import Testing
@testable import TrellisPlugins
import TrellisCore
import TrellisTesting

/// The settings a plugin declares in its manifest: validated with errors naming the key,
/// stored per plugin, checked on every change, and read by the plugin through `get_settings`
/// (ABI 2) at once, with `<id>:settings` telling of each change.
@Suite("Plugin settings (the plugin's own)")
struct PluginOwnSettingsTests {
    static let settings = #"""
        [{"key": "interval", "type": "int", "default": 5, "min": 1, "max": 60, "title": "Interval"},
         {"key": "units", "type": "choice", "choices": ["metric", "imperial"], "default": "metric", "title": "Units"},
         {"key": "loud", "type": "bool", "default": false, "title": "Loud"},
         {"key": "track", "type": "path", "default": "", "title": "Track"},
         {"key": "name", "type": "string", "default": "Ada", "title": "Name"}]
        """#

    /// Answers `asker:ask` with `asker:values` carrying what get_settings returned, read with a
    /// buffer too small first (as the header tells a plugin to do).
    static let source = #"""
        #include <stdlib.h>
        #include "trellis_plugin.h"
        static const trellis_host_api *host;
        static void on_ask (void *u, const char *m, const char *d) {
          (void) u; (void) m; (void) d;
          if (!TRELLIS_HOST_HAS (host, get_settings)) { host->trigger (host->context, "asker:values", "\"no get_settings\""); return; }
          char small[4];
          int64_t length = host->get_settings (host->context, small, sizeof small);
          char *text = malloc ((size_t) length + 1);
          if (host->get_settings (host->context, text, (size_t) length + 1) == length)
            host->trigger (host->context, "asker:values", text);
          free (text);
        }
        static const trellis_plugin_info info = { TRELLIS_PLUGIN_ABI_VERSION, sizeof (trellis_plugin_info), 0 };
        const trellis_plugin_info *trellis_plugin_entry (const trellis_host_api *h) {
          host = h;
          host->watch (host->context, "asker:ask", on_ask, 0, 0);
          host->watch (host->context, "asker:settings", on_ask, 0, 0);
          return &info;
        }
        """#

    /// Installs the asker plugin, built from `source` (given its folder); returns the folder.
    @discardableResult
    func install(_ sandbox: PluginSandbox, source: (URL) -> String = { _ in PluginOwnSettingsTests.source }) throws -> URL {
        // A folder the plugin may write (its own is read-only to it), for the tests' signals.
        let signals = sandbox.root.appendingPathComponent("asker-signals")
        try FileManager.default.createDirectory(at: signals, withIntermediateDirectories: true)
        let folder = try sandbox.writeManifest(folder: "asker", #"""
            {"id": "asker", "name": "Asker", "version": "1", "abiVersion": 2, "library": "libasker.so",
             "permissions": {"files": {"\#(signals.path)": "read-write"}},
             "settings": \#(Self.settings)}
            """#)
        try CCompiler.build(source(signals), to: folder.appendingPathComponent("libasker.so"))
        return signals
    }

    @Test("the plugin reads its settings, and the new values once one changes; the change is stored")
    func readAndChanged() async throws {
        let sandbox = try PluginSandbox()
        try install(sandbox)
        let harness = PluginHarness(sandbox: sandbox)
        _ = await harness.host.loadAll()
        let values = EventRecorder(bus: harness.bus, pattern: "asker:values")
        harness.bus.trigger("asker:ask")
        #expect(try await values.wait(for: "asker:values").first?.data
                == ["interval": 5, "units": "metric", "loud": false, "track": "", "name": "Ada"])

        let changed = try harness.host.setSetting("units", of: "asker", to: "imperial")
        #expect(changed["units"] == "imperial")
        #expect(await eventually { values.all.count == 2 })
        #expect(values.all.last?.data["units"] == "imperial", "the plugin reads the new value when told of the change")

        // Stored: a new host over the same folder reads it.
        let again = PluginHarness(sandbox: sandbox)
        _ = again.host.survey()
        _ = await again.host.loadAll()
        #expect(again.host.currentSettings(of: "asker")?["units"] == "imperial")
    }

    /// A plugin whose start waits, after its watches, for the file `go` in `folder`, having
    /// written `started` there: a setting changed meanwhile must still reach it.
    static func slowStarter(_ folder: URL) -> String {
        Self.source.replacingOccurrences(of: "#include <stdlib.h>", with: "#include <stdlib.h>\n#include <stdio.h>\n#include <unistd.h>")
            .replacingOccurrences(of: "  return &info;\n}", with: """
                  FILE *started = fopen ("\(folder.path)/started", "w");
                  if (started) fclose (started);
                  while (access ("\(folder.path)/go", F_OK) != 0) usleep (5000);
                  return &info;
                }
                """)
    }

    @Test("a setting changed while the plugin starts reaches it once started")
    func changedWhileStarting() async throws {
        let sandbox = try PluginSandbox()
        let folder = try install(sandbox, source: Self.slowStarter)
        #expect(Self.slowStarter(folder).contains("/go"), "the start waits for its file")
        let harness = PluginHarness(sandbox: sandbox)
        harness.host.discover()
        let values = EventRecorder(bus: harness.bus, pattern: "asker:values")
        let host = harness.host
        let loading = Task.detached { await host.finishStartup() }
        #expect(await eventually { FileManager.default.fileExists(atPath: folder.appendingPathComponent("started").path) })

        try host.setSetting("units", of: "asker", to: "imperial")  // the plugin is not loaded yet
        try Data().write(to: folder.appendingPathComponent("go"))
        await loading.value

        #expect(host.report(for: "asker")?.state == .loaded)
        harness.bus.trigger("asker:ask")
        #expect(await eventually { values.all.contains { $0.data["units"] == "imperial" } },
                "the plugin still reads the values of its launch: \(values.all.map(\.data))")
        // (Told of the change during its start, it may first have read the values of its launch.)
        #expect(await eventually { values.all.last?.data["units"] == "imperial" }, "\(values.all.map(\.data))")
    }

    static let misfits: [(key: String, value: JSONValue, reason: String)] = [
        ("interval", JSONValue.number(0), "must be a whole number from 1 to 60"),
        ("interval", .string("5"), "must be a whole number from 1 to 60"),
        ("units", .string("cubits"), "must be one of metric, imperial"),
        ("loud", .string("yes"), "must be true or false"),
        ("track", .string("relative/path"), "must be an absolute path"),
        ("nope", .bool(true), "has no such setting"),
    ]

    @Test("a value that does not fit its setting is refused, naming the setting, and nothing changes",
          arguments: misfits)
    func refused(misfit: (key: String, value: JSONValue, reason: String)) async throws {
        let (key, value, reason) = misfit
        let sandbox = try PluginSandbox()
        try install(sandbox)
        let harness = PluginHarness(sandbox: sandbox)
        await harness.load()
        #expect {
            try harness.host.setSetting(key, of: "asker", to: value)
        } throws: { error in
            "\(error)".contains("setting \"\(key)\"") && "\(error)".contains(reason)
        }
        #expect(harness.host.currentSettings(of: "asker")?["interval"] == 5)
        #expect(!FileManager.default.fileExists(atPath: harness.host.settingValues.url(of: "asker").path))
    }

    @Test("a broken values file: the defaults stand, and the file is kept aside at the next change")
    func brokenFile() async throws {
        let sandbox = try PluginSandbox()
        try install(sandbox)
        let harness = PluginHarness(sandbox: sandbox)
        await harness.load()
        let file = harness.host.settingValues.url(of: "asker")
        try FileManager.default.createDirectory(at: file.deletingLastPathComponent(), withIntermediateDirectories: true)
        try Data("{not json".utf8).write(to: file)
        #expect(harness.host.currentSettings(of: "asker")?["units"] == "metric")
        try harness.host.setSetting("units", of: "asker", to: "imperial")
        #expect(try String(contentsOf: file.appendingPathExtension("broken"), encoding: .utf8) == "{not json")
        #expect(harness.host.currentSettings(of: "asker")?["units"] == "imperial")
    }

    @Test("bad settings in a manifest are refused naming the key", arguments: [
        (#"[{"key": "a", "type": "int", "default": 0, "min": 1, "title": "A"}]"#, #"key "settings[0].default": must be a whole number from 1"#),
        (#"[{"key": "a", "type": "colour", "default": 0, "title": "A"}]"#, #"key "settings[0].type": "colour" is not bool, int, string, choice, path or position"#),
        (#"[{"key": "a", "type": "choice", "default": "x", "title": "A"}]"#, #"key "settings[0].choices""#),
        (#"[{"key": "a", "type": "bool", "title": "A"}]"#, #"key "settings[0].default""#),
        (#"[{"key": "a", "type": "bool", "default": true, "title": "A", "min": 1}]"#, #"key "settings[0].min": only an int setting"#),
        (#"[{"key": "a b", "type": "bool", "default": true, "title": "A"}]"#, #"key "settings[0].key""#),
    ])
    func badManifest(settings: String, expected: String) {
        let text = #"{"id": "p", "name": "P", "version": "1", "abiVersion": 2, "library": "libp.so", "settings": \#(settings)}"#
        #expect {
            try PluginManifest(json: try JSONValue(jsonString: text), file: "/p/plugin.json")
        } throws: { error in
            "\(error)".contains("/p/plugin.json") && "\(error)".contains(expected)
        }
    }

    @Test("an unknown key in a manifest is refused, naming it")
    func unknownKey() {
        let text = #"{"id": "p", "name": "P", "version": "1", "abiVersion": 2, "library": "libp.so", "setings": []}"#
        #expect {
            try PluginManifest(json: try JSONValue(jsonString: text), file: "/p/plugin.json")
        } throws: { error in
            "\(error)".contains(#"key "setings": unknown key"#)
        }
    }
}
