import Foundation
import Testing
@testable import TrellisPlugins
import TrellisCore
import TrellisTesting

/// `trellis --plugin-dev DIR`: a plugin rebuilt while the app runs is reloaded in a new process,
/// with its manifest read again, without restarting the app.
/// Process mode only: a library opened in the shell's process cannot be unloaded and loaded anew.
@Suite("Plugin development: reload on rebuild", .serialized)
struct PluginDevelopmentTests {
    /// A plugin answering `dev:ping` with `dev:pong {"version": version}`; from version 2 on it
    /// also triggers `extra:hello`, which its first manifest does not grant.
    static func build(version: Int, into folder: URL) throws {
        try CCompiler.build("""
            #include "trellis_plugin.h"
            static const trellis_host_api *host;
            static void on_ping (void *u, const char *m, const char *j) {
              (void) u; (void) m; (void) j;
              host->trigger (host->context, "dev:pong", "{\\"version\\": \(version)}");
              if (\(version) > 1) host->trigger (host->context, "extra:hello", 0);
            }
            static const trellis_plugin_info info = { TRELLIS_PLUGIN_ABI_VERSION, sizeof (trellis_plugin_info), 0 };
            const trellis_plugin_info *trellis_plugin_entry (const trellis_host_api *h) {
              host = h;
              host->watch (host->context, "dev:ping", on_ping, 0, 0);
              return &info;
            }
            """, to: folder.appendingPathComponent("libdev.so"))
    }

    static func manifest(granting trigger: [String]) -> String {
        let patterns = trigger.map { "\"\($0)\"" }.joined(separator: ", ")
        return #"{"id": "dev", "name": "Dev", "version": "0.0.1", "abiVersion": 2, "library": "libdev.so", "permissions": {"trigger": [\#(patterns)]}}"#
    }

    @Test("rebuilding the library and editing plugin.json reload the plugin: the new code answers, the new grants apply")
    func reloadOnRebuild() async throws {
        let sandbox = try PluginSandbox()
        let folder = try sandbox.writeManifest(folder: "dev", Self.manifest(granting: ["dev:*"]))
        try Self.build(version: 1, into: folder)
        let harness = PluginHarness(sandbox: sandbox, isolation: .process)
        #expect(await offThePool { harness.host.loadAll() }[id: "dev"]?.state == .loaded)
        let events = EventRecorder(bus: harness.bus, pattern: "*")
        let crashes = EventRecorder(bus: harness.bus, pattern: "plugin:crashed")
        harness.bus.trigger("dev:ping")
        #expect(try await events.wait(for: "dev:pong").first?.data == ["version": 1])

        let watcher = PluginDevWatcher(host: harness.host, directory: folder, interval: .milliseconds(100))
        watcher.start()
        defer { watcher.stop() }
        // The manifest first: a process that runs the new library has read it. The two files
        // change at two moments, and on a busy machine the watcher may reload once for each.
        try Data(Self.manifest(granting: ["dev:*", "extra:*"]).utf8).write(to: folder.appendingPathComponent("plugin.json"))
        try Self.build(version: 2, into: folder)

        let reloaded = try #require(try await events.wait(for: "plugin:reloaded").first)
        #expect(reloaded.data["plugin"] == "dev" && reloaded.data["state"] == "loaded", "\(reloaded)")
        var version: JSONValue?
        let deadline = ContinuousClock.now + testDeadline
        while version != 2 && ContinuousClock.now < deadline {
            events.clear()
            harness.bus.trigger("dev:ping")  // lost when it reaches a process being replaced
            version = try? await events.wait(for: "dev:pong", timeout: .seconds(1)).first?.data["version"]
        }
        #expect(version == 2, "the new library never answered")
        _ = try await events.wait(for: "extra:hello")  // granted by the manifest read again
        #expect(crashes.all.isEmpty, "\(crashes.all)")
        #expect(harness.host.report(for: "dev")?.state == .loaded)
        #expect(harness.host.report(for: "dev")?.manifest?.permissions.grants[.trigger] == ["dev:*", "extra:*"])
    }

    @Test("a reload whose manifest is broken keeps the running plugin and says why")
    func brokenManifestKeepsThePlugin() async throws {
        let sandbox = try PluginSandbox()
        let folder = try sandbox.writeManifest(folder: "dev", Self.manifest(granting: ["dev:*"]))
        try Self.build(version: 1, into: folder)
        let harness = PluginHarness(sandbox: sandbox, isolation: .process)
        #expect(await offThePool { harness.host.loadAll() }[id: "dev"]?.state == .loaded)

        try Data("{ not json".utf8).write(to: folder.appendingPathComponent("plugin.json"))
        let reason = await offThePool { harness.host.reload("dev") }

        #expect(reason?.contains("plugin.json: the manifest is not valid JSON") == true, "\(reason ?? "reloaded")")
        let events = EventRecorder(bus: harness.bus, pattern: "dev:pong")
        harness.bus.trigger("dev:ping")
        #expect(try await events.wait(for: "dev:pong").first?.data == ["version": 1])
    }
}
