import Foundation
import Testing
@testable import TrellisPlugins
import TrellisCore
import TrellisTesting

/// Lazy activation: a plugin whose manifest names activation events is not opened until one
/// happens (VS Code's activation events), and `trellis plugins` says what it waits for.
@Suite("Plugin activation", .serialized)
struct PluginActivationTests {
    static func install(_ sandbox: PluginSandbox, _ id: String, extra: String) throws -> URL {
        let folder = try sandbox.writeManifest(folder: id, """
            {"id": "\(id)", "name": "\(id)", "version": "1", "abiVersion": 2, "library": "lib\(id).so", \(extra)}
            """)
        let library = folder.appendingPathComponent("lib\(id).so")
        try ProbingPlugin.build(id: id, to: library)
        return library
    }

    /// Whether this process has opened `library` (`RTLD_NOLOAD` finds it without opening it).
    static func isMapped(_ library: URL) throws -> Bool {
        guard let handle = dlopen(library.path, RTLD_NOW | RTLD_NOLOAD) else { return false }
        dlclose(handle)
        return true
    }

    @Test("onEvent: the library is not opened at start; the first matching event loads it", arguments: PluginIsolation.both)
    func onEvent(isolation: PluginIsolation) async throws {
        let sandbox = try PluginSandbox()
        let library = try Self.install(sandbox, "sleepy", extra: #""activation": ["onEvent:wake:*"]"#)
        let harness = PluginHarness(sandbox: sandbox, isolation: isolation)
        let report = try #require(await harness.load()[id: "sleepy"])
        #expect(report.state == .waiting(activation: [.onEvent("wake:*")]))
        #expect(report.state.description == "inactive (waiting for onEvent:wake:*)")
        #expect(PluginReport.table(harness.host.reports).contains("    inactive (waiting for onEvent:wake:*)"))
        // Only an in-process plugin's library is mapped into this process (RTLD_NOLOAD sees it).
        let mapped = isolation == .inProcess
        #expect(try !Self.isMapped(library), "the library was opened before its activation event")
        let events = EventRecorder(bus: harness.bus, pattern: "*")

        harness.bus.trigger("wake:up")

        let activated = try #require(try await events.wait(for: "plugin:activated").first)
        #expect(activated.data["plugin"] == "sleepy" && activated.data["state"] == "loaded")
        #expect(try Self.isMapped(library) == mapped)
        harness.bus.trigger("sleepy:go")
        _ = try await events.wait(for: "sleepy:codes")
        harness.bus.trigger("wake:again")  // activates nothing twice
        #expect(events.count("plugin:activated") == 1)
    }

    @Test("onCommand: invoking the command loads the plugin, which then receives it", arguments: PluginIsolation.both)
    func onCommand(isolation: PluginIsolation) async throws {
        let sandbox = try PluginSandbox()
        _ = try Self.install(sandbox, "lazy", extra: #""commands": [{"id": "go", "title": "Go"}], "activation": ["onCommand:go"]"#)
        let harness = PluginHarness(sandbox: sandbox, isolation: isolation)
        #expect(await harness.load()[id: "lazy"]?.state.isWaiting == true)
        let command = try #require(harness.host.commandContributions().first, "a waiting plugin's command is in the menu")
        let events = EventRecorder(bus: harness.bus, pattern: "*")

        #expect(harness.host.invoke(command))

        _ = try await events.wait(for: "lazy:command")
        #expect(events.messages.firstIndex(of: "plugin:activated")! < events.messages.firstIndex(of: "lazy:command")!)
        #expect(harness.host.report(for: "lazy")?.state == .loaded)
    }

    @Test("a waiting plugin another plugin depends on loads at startup", arguments: PluginIsolation.both)
    func neededAtStartup(isolation: PluginIsolation) async throws {
        let sandbox = try PluginSandbox()
        _ = try Self.install(sandbox, "base", extra: #""activation": ["onEvent:never"]"#)
        _ = try Self.install(sandbox, "user", extra: #""dependencies": ["base"]"#)
        let harness = PluginHarness(sandbox: sandbox, isolation: isolation)
        let reports = await harness.load()
        #expect(reports[id: "base"]?.state == .loaded && reports[id: "user"]?.state == .loaded, "\(reports)")
    }

    @Test("bad activation events are refused naming the file and the key", arguments: [
        (#"["onCommand:nope"]"#, #"key "activation[0]": "nope" is not one of the plugin's commands"#),
        (#"["onRoute:/x"]"#, #"key "activation[0]": "/x" is not one of the plugin's routes"#),
        (#"["whenever"]"#, #"key "activation[0]": "whenever" is not onStartup, onCommand:ID, onEvent:PATTERN or onRoute:PATTERN"#),
        (#"[]"#, #"key "activation""#),
        (#"["onEvent:"]"#, #"key "activation[0]": onEvent: needs an event pattern"#),
    ])
    func refused(activation: String, expected: String) {
        let text = #"{"id": "p", "name": "P", "version": "1", "abiVersion": 2, "library": "libp.so", "activation": \#(activation)}"#
        #expect {
            try PluginManifest(json: try JSONValue(jsonString: text), file: "/p/plugin.json")
        } throws: { error in
            "\(error)".contains("/p/plugin.json") && "\(error)".contains(expected)
        }
    }
}
