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

    /// The plugin processes this test process started that run plugin `id` now.
    static func processes(running id: String) -> [Int32] {
        let children = (try? FileManager.default.contentsOfDirectory(atPath: "/proc")) ?? []
        return children.compactMap(Int32.init).filter { pid in
            guard let stat = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8),
                  let close = stat.lastIndex(of: ")"),
                  Int32(stat[stat.index(close, offsetBy: 4)...].split(separator: " ").first ?? "") == getpid(),
                  let command = try? Data(contentsOf: URL(fileURLWithPath: "/proc/\(pid)/cmdline")) else { return false }
            return command.split(separator: 0).last.map { String(decoding: $0, as: UTF8.self) } == id
        }
    }

    @Test("onEvent: the library is not opened at start; the first matching event loads it")
    func onEvent() async throws {
        let sandbox = try PluginSandbox()
        _ = try Self.install(sandbox, "sleepy", extra: #""activation": ["onEvent:wake:*"]"#)
        let harness = PluginHarness(sandbox: sandbox)
        let report = try #require(await harness.load()[id: "sleepy"])
        #expect(report.state == .waiting(activation: [.onEvent("wake:*")]))
        #expect(report.state.description == "inactive (waiting for onEvent:wake:*)")
        #expect(PluginReport.table(harness.host.reports).contains("    inactive (waiting for onEvent:wake:*)"))
        #expect(Self.processes(running: "sleepy").isEmpty, "the plugin was started before its activation event")
        let events = EventRecorder(bus: harness.bus, pattern: "*")

        harness.bus.trigger("wake:up")

        let activated = try #require(try await events.wait(for: "plugin:activated").first)
        #expect(activated.data["plugin"] == "sleepy" && activated.data["state"] == "loaded")
        #expect(Self.processes(running: "sleepy").count == 1)
        harness.bus.trigger("sleepy:go")
        _ = try await events.wait(for: "sleepy:codes")
        harness.bus.trigger("wake:again")  // activates nothing twice
        #expect(events.count("plugin:activated") == 1)
    }

    @Test("onCommand: invoking the command loads the plugin, which then receives it")
    func onCommand() async throws {
        let sandbox = try PluginSandbox()
        _ = try Self.install(sandbox, "lazy", extra: #""commands": [{"id": "go", "title": "Go"}], "activation": ["onCommand:go"]"#)
        let harness = PluginHarness(sandbox: sandbox)
        #expect(await harness.load()[id: "lazy"]?.state.isWaiting == true)
        let command = try #require(harness.host.commandContributions().first, "a waiting plugin's command is in the menu")
        let events = EventRecorder(bus: harness.bus, pattern: "*")

        #expect(harness.host.invoke(command))

        _ = try await events.wait(for: "lazy:command")
        #expect(events.messages.firstIndex(of: "plugin:activated")! < events.messages.firstIndex(of: "lazy:command")!)
        #expect(harness.host.report(for: "lazy")?.state == .loaded)
    }

    @Test("a waiting plugin another plugin depends on loads at startup")
    func neededAtStartup() async throws {
        let sandbox = try PluginSandbox()
        _ = try Self.install(sandbox, "base", extra: #""activation": ["onEvent:never"]"#)
        _ = try Self.install(sandbox, "user", extra: #""dependencies": ["base"]"#)
        let harness = PluginHarness(sandbox: sandbox)
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
