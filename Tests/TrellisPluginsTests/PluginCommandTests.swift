import Foundation
import Testing
@testable import TrellisPlugins
import TrellisCore
import TrellisTesting

/// Commands contributed in a plugin's manifest: read without the plugin's code, validated with
/// errors naming the file and the key, conflicts over an accelerator settled first come, first
/// served, and invoking one reaching the plugin over its own event namespace.
@Suite("Plugin commands")
struct PluginCommandTests {
    static func manifest(_ id: String, commands: String) -> String {
        #"{"id": "\#(id)", "name": "\#(id)", "version": "1", "abiVersion": 2, "library": "lib\#(id).so", "commands": \#(commands)}"#
    }

    @Test("a manifest's commands are read with their titles, accelerators and placement")
    func parsed() throws {
        let text = Self.manifest("greeter", commands: #"[{"id": "greet", "title": "Say Hello", "accelerator": "<Control><Shift>h"}, {"id": "quiet", "title": "Hush"}]"#)
        let manifest = try PluginManifest(json: try JSONValue(jsonString: text), file: "plugin.json")
        #expect(manifest.commands == [PluginCommand(id: "greet", title: "Say Hello", accelerator: "<Control><Shift>h"),
                                      PluginCommand(id: "quiet", title: "Hush")])
        #expect(try PluginManifest(json: manifest.json, file: "again").commands == manifest.commands)
    }

    @Test("bad commands are refused naming the file and the key", arguments: [
        (#"{"id": "x"}"#, #"key "commands""#),
        (#"[{"title": "T"}]"#, #"key "commands[0].id""#),
        (#"[{"id": "a", "title": "T"}, {"id": "a", "title": "U"}]"#, #"key "commands[1].id": "a" is listed twice"#),
        (#"[{"id": "a b", "title": "T"}]"#, #"key "commands[0].id": "a b" is not a valid id"#),
        (#"[{"id": "a", "title": ""}]"#, #"key "commands[0].title""#),
        (#"[{"id": "a", "title": "T", "shortcut": "x"}]"#, #"key "commands[0].shortcut": unknown key"#),
        (#"[{"id": "a", "title": "T", "placement": "toolbar"}]"#, #"key "commands[0].placement""#),
        (#"[{"id": "a", "title": "T", "placement": "pageActions"}]"#, #"key "commands[0].routes""#),
        (#"[{"id": "a", "title": "T", "placement": "pageActions", "routes": ["x"]}]"#, #"key "commands[0].routes[0]""#),
        (#"[{"id": "a", "title": "T", "placement": "pageActions", "routes": ["/x"], "accelerator": "<Control>x"}]"#, #"key "commands[0].accelerator": a page action has no accelerator"#),
        (#"[{"id": "a", "title": "T", "routes": ["/x"]}]"#, #"key "commands[0].routes": only a pageActions command"#),
        (#"[{"id": "a", "title": 5}]"#, #"key "commands[0].title""#),
    ])
    func refused(commands: String, expected: String) {
        #expect {
            try PluginManifest(json: try JSONValue(jsonString: Self.manifest("p", commands: commands)), file: "/p/plugin.json")
        } throws: { error in
            "\(error)".contains("/p/plugin.json") && "\(error)".contains(expected)
        }
    }

    @Test("accelerators are compared in one spelling")
    func normalized() {
        #expect(PluginCommand.normalized("<Control><Shift>H") == PluginCommand.normalized("<Shift><Primary>h"))
        #expect(PluginCommand.normalized("<Control>h") != PluginCommand.normalized("<Control><Shift>h"))
    }

    @Test("two plugins asking for one accelerator: the first keeps it, the second's command stays without it, both named in the log; one the app has is refused too")
    func conflicts() async throws {
        let sandbox = try PluginSandbox()
        for (id, commands) in [("alpha", #"[{"id": "go", "title": "Alpha Go", "accelerator": "<Control><Shift>k"}, {"id": "new", "title": "New", "accelerator": "<Control>n"}]"#),
                               ("beta", #"[{"id": "go", "title": "Beta Go", "accelerator": "<Shift><Control>K"}]"#)] {
            let folder = try sandbox.writeManifest(folder: id, Self.manifest(id, commands: commands))
            try ProbingPlugin.build(id: id, to: folder.appendingPathComponent("lib\(id).so"))
        }
        let harness = PluginHarness(sandbox: sandbox)
        #expect(await harness.load().allSatisfy { $0.state == .loaded })

        let contributions = harness.host.commandContributions(taken: ["<Control>n": "the app's New note"])

        #expect(contributions.map { "\($0.plugin)/\($0.command.id) \($0.accelerator ?? "-")" }
                == ["alpha/go <Control><Shift>k", "alpha/new -", "beta/go -"])
        let warnings = harness.logs.messages(at: .warning)
        #expect(warnings.contains(#"plugin "beta": command "go": accelerator <Shift><Control>K refused: plugin "alpha" (command "go") has it"#), "\(warnings)")
        #expect(warnings.contains(#"plugin "alpha": command "new": accelerator <Control>n refused: the app's New note has it"#), "\(warnings)")
        #expect(contributions.map(\.actionName) == ["plugin-alpha-go", "plugin-alpha-new", "plugin-beta-go"])
    }

    @Test("an action name keeps ASCII letters, digits, dots and dashes, and makes anything else a dash")
    func actionNames() {
        #expect(PluginCommandContribution.actionName(plugin: "café.app", item: "page/a b_9") == "plugin-caf-.app-page-a-b-9")
        #expect(PluginCommandContribution.actionName(plugin: "Zz", item: "日本") == "plugin-Zz---")
        // One dash for each Unicode scalar, whatever its length in UTF-8: 🙂 is four bytes, the
        // combining acute accent after "e" two.
        #expect(PluginCommandContribution.actionName(plugin: "a🙂", item: "e\u{301}") == "plugin-a--e-")
    }

    @Test("invoking a command triggers <plugin>:command for the plugin; a disabled plugin's command does nothing")
    func invoked() async throws {
        let sandbox = try PluginSandbox()
        let folder = try sandbox.writeManifest(folder: "alpha", Self.manifest("alpha", commands: #"[{"id": "go", "title": "Go"}]"#))
        try ProbingPlugin.build(id: "alpha", to: folder.appendingPathComponent("libalpha.so"))
        let harness = PluginHarness(sandbox: sandbox)
        await harness.load()
        let events = EventRecorder(bus: harness.bus, pattern: "alpha:command")
        let command = try #require(harness.host.commandContributions().first)

        #expect(harness.host.invoke(command))
        #expect(events.all.map(\.data) == [["command": "go"]])

        try await harness.setEnabled("alpha", false)
        #expect(!harness.host.invoke(command))
        #expect(events.count("alpha:command") == 1)
    }
}

/// Status items contributed in a manifest and set by the plugin over its namespace.
@Suite("Plugin status items")
struct PluginStatusItemTests {
    @Test("the Location plugin sets its status item; a stray item or text is ignored and said once; stopping hides it")
    func location() async throws {
        let sandbox = try PluginSandbox()
        try sandbox.install("Location")
        let harness = PluginHarness(sandbox: sandbox)
        #expect(await harness.load()[id: "location"]?.state == .loaded)
        let lines = PluginStatusLines(host: harness.host, logger: harness.logs.logger(label: "trellis.plugins"))
        let seen = LockedState<[[String]]>([])
        lines.start { lines in seen.withLock { $0.append(lines.map { "\($0.item.title): \($0.text)" }) } }

        #expect(await eventually { seen.withLock { $0.last } == ["Location: 48.85840, 2.29450 ±15 m"] }, "\(seen.withLock { $0 })")

        for _ in 0..<2 {
            harness.bus.trigger("location:status", ["item": "altitude", "text": "12 m"])
            harness.bus.trigger("location:status", ["item": "position", "text": 5])
        }
        let warnings = harness.logs.messages(at: .warning).filter { $0.contains("location:status") }
        #expect(warnings.count == 2, "\(warnings)")
        #expect(warnings.contains { $0.contains(#"item "altitude": ignored: names no item of its manifest's statusItems (position)"#) })

        try await harness.services.stop("location")
        #expect(await eventually { seen.withLock { $0.last } == [] })
    }

    /// A C plugin, from the header alone, that sets its status item when asked.
    static let thermometer = #"""
        #include "trellis_plugin.h"
        static const trellis_host_api *host;
        static void on_read (void *u, const char *m, const char *d) {
          (void) u; (void) m;
          host->trigger (host->context, "thermometer:status", d);
        }
        static const trellis_plugin_info info = { TRELLIS_PLUGIN_ABI_VERSION, sizeof (trellis_plugin_info), 0 };
        const trellis_plugin_info *trellis_plugin_entry (const trellis_host_api *h) {
          host = h;
          host->watch (host->context, "thermometer:read", on_read, 0, 0);
          host->trigger (host->context, "thermometer:status", "{\"item\": \"temperature\", \"text\": \"21 °C\"}");
          return &info;
        }
        """#

    @Test("a C plugin sets its status item while it loads (shown by status lines started after) and changes it; null hides it")
    func cPlugin() async throws {
        let sandbox = try PluginSandbox()
        let folder = try sandbox.writeManifest(folder: "thermometer", #"""
            {"id": "thermometer", "name": "Thermometer", "version": "1", "abiVersion": 2, "library": "libthermometer.so",
             "permissions": {}, "statusItems": [{"id": "temperature", "title": "Temperature"}]}
            """#)
        try CCompiler.build(Self.thermometer, to: folder.appendingPathComponent("libthermometer.so"))
        let harness = PluginHarness(sandbox: sandbox)
        #expect(await harness.load()[id: "thermometer"]?.state == .loaded)
        // Started after the load, as an app does: the item the plugin set while it loaded shows.
        let lines = PluginStatusLines(host: harness.host, logger: harness.logs.logger(label: "trellis.plugins"))
        let seen = LockedState<[[String]]>([])
        lines.start { lines in seen.withLock { $0.append(lines.map { "\($0.item.title): \($0.text)" }) } }

        #expect(await eventually { seen.withLock { $0.last } == ["Temperature: 21 °C"] }, "\(seen.withLock { $0 })")
        harness.bus.trigger("thermometer:read", ["item": "temperature", "text": "22 °C"])
        #expect(await eventually { seen.withLock { $0.last } == ["Temperature: 22 °C"] }, "\(seen.withLock { $0 })")
        harness.bus.trigger("thermometer:read", ["item": "temperature", "text": nil])
        #expect(await eventually { seen.withLock { $0.last } == [] }, "\(seen.withLock { $0 })")
    }

    @Test("bad status items are refused naming the file and the key", arguments: [
        (#"[{"id": "a"}]"#, #"key "statusItems[0].title""#),
        (#"[{"id": "a", "title": "A"}, {"id": "a", "title": "B"}]"#, #"key "statusItems[1].id": "a" is listed twice"#),
        (#"[{"id": "a", "title": "A", "colour": "red"}]"#, #"key "statusItems[0].colour": unknown key"#),
        (#"{"id": "a"}"#, #"key "statusItems""#),
    ])
    func refused(items: String, expected: String) {
        let text = #"{"id": "p", "name": "P", "version": "1", "abiVersion": 2, "library": "libp.so", "statusItems": \#(items)}"#
        #expect {
            try PluginManifest(json: try JSONValue(jsonString: text), file: "/p/plugin.json")
        } throws: { error in
            "\(error)".contains("/p/plugin.json") && "\(error)".contains(expected)
        }
    }
}
