import Foundation
import Testing
@testable import TrellisPlugins
import TrellisCore
import TrellisTesting

/// A start that leaves its plugins for later (the window's, until its first frame is on
/// screen): `loadAll(deferringStartup: true)` reads every manifest and opens no library;
/// `finishStartup()` loads what would have loaded, in dependency order; a page or command
/// used before then loads its plugin at once.
@Suite("Deferred plugin start-up", .serialized)
struct PluginDeferredStartupTests {
    func loadDeferred(_ harness: PluginHarness) async -> [PluginReport] {
        let host = harness.host
        return await offThePool { host.loadAll(deferringStartup: true) }
    }

    func finishStartup(_ harness: PluginHarness) async {
        let host = harness.host
        await offThePool { host.finishStartup() }
    }

    @Test("onStartup plugins wait, unopened, until finishStartup loads them in dependency order", arguments: PluginIsolation.both)
    func waitsThenLoadsInOrder(isolation: PluginIsolation) async throws {
        let sandbox = try PluginSandbox()
        // Folder names sort the dependent first: the order comes from the dependencies.
        let user = try PluginActivationTests.install(sandbox, "a-user", extra: #""dependencies": ["z-base"]"#)
        let base = try PluginActivationTests.install(sandbox, "z-base", extra: #""activation": ["onEvent:never"]"#)
        _ = try PluginActivationTests.install(sandbox, "lazy", extra: #""activation": ["onEvent:never"]"#)
        let harness = PluginHarness(sandbox: sandbox, isolation: isolation)
        let events = EventRecorder(bus: harness.bus, pattern: "plugin:*")

        let reports = await loadDeferred(harness)

        #expect(reports[id: "a-user"]?.state == .waiting(activation: [.onStartup]))
        #expect(reports[id: "a-user"]?.state.description == "inactive (waiting for onStartup)")
        // Loaded at the start because a plugin loading then needs it, whatever it waits for.
        #expect(reports[id: "z-base"]?.state == .waiting(activation: [.onStartup, .onEvent("never")]))
        #expect(reports[id: "lazy"]?.state == .waiting(activation: [.onEvent("never")]))
        #expect(try !PluginActivationTests.isMapped(user) && !PluginActivationTests.isMapped(base),
                "a library was opened before finishStartup")

        await finishStartup(harness)

        #expect(harness.host.report(for: "a-user")?.state == .loaded)
        #expect(harness.host.report(for: "z-base")?.state == .loaded)
        #expect(harness.host.report(for: "lazy")?.state.isWaiting == true, "a lazy plugin nobody needs still waits")
        #expect(try PluginActivationTests.isMapped(user) == (isolation == .inProcess))
        let activated = events.events(named: "plugin:activated").compactMap { $0.data["plugin"]?.stringValue }
        #expect(activated == ["z-base", "a-user"])
        // Once: a second call, or a later loadAll, loads nothing again.
        await finishStartup(harness)
        _ = await harness.load()
        #expect(events.count("plugin:activated") == 2)
    }

    @Test("a deferred plugin's command, used before finishStartup, loads it and the plugin it needs", arguments: PluginIsolation.both)
    func commandBeforeFinish(isolation: PluginIsolation) async throws {
        let sandbox = try PluginSandbox()
        _ = try PluginActivationTests.install(sandbox, "base", extra: #""activation": ["onStartup"]"#)
        _ = try PluginActivationTests.install(sandbox, "user", extra: #""dependencies": ["base"], "commands": [{"id": "go", "title": "Go"}]"#)
        let harness = PluginHarness(sandbox: sandbox, isolation: isolation)
        _ = await loadDeferred(harness)
        let events = EventRecorder(bus: harness.bus, pattern: "*")
        let command = try #require(harness.host.commandContributions().first { $0.plugin == "user" })

        #expect(harness.host.invoke(command))

        _ = try await events.wait(for: "user:command")
        let activated = events.events(named: "plugin:activated").compactMap { $0.data["plugin"]?.stringValue }
        #expect(activated == ["base", "user"], "the plugin it needs first: \(events.messages)")
        await finishStartup(harness)
        #expect(events.count("plugin:activated") == 2, "finishStartup loaded a plugin twice")
        #expect(harness.host.report(for: "base")?.state == .loaded && harness.host.report(for: "user")?.state == .loaded)
    }

    @Test("a disabled plugin is not loaded by finishStartup")
    func disabledMeanwhile() async throws {
        let sandbox = try PluginSandbox()
        _ = try PluginActivationTests.install(sandbox, "solo", extra: #""activation": ["onStartup"]"#)
        let harness = PluginHarness(sandbox: sandbox)
        _ = await loadDeferred(harness)
        #expect(try await harness.setEnabled("solo", false)?.state == .disabled)

        await finishStartup(harness)

        #expect(harness.host.report(for: "solo")?.state == .disabled)
    }
}
