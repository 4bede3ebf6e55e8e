import Foundation
import Testing
@testable import TrellisPlugins
import TrellisCore
import TrellisTesting

/// The manifest's `permissions`, enforced on a plugin built in C from the header alone, in
/// the shell's process and in a process of its own: each host function answers a call the
/// manifest does not grant with `TRELLIS_ERROR_DENIED` (watch: 0), the host does nothing, and
/// logs the denial once, naming the permission.
@Suite("Plugin permissions", .serialized)
struct PluginPermissionsTests {
    /// The routes the probe navigates to: `/secret/:id` and `/hidden` are not public.
    static func routes() throws -> RouteTable<RouteTarget> {
        let routes = RouteTable<RouteTarget>()
        try routes.add("/secret/:id", owner: "app", target: .block { _ in })
        try routes.add("/hidden", owner: "app", target: .block { _ in })
        try routes.add("/open", owner: "app", isPublic: true, target: .block { _ in })
        return routes
    }

    static let grants = #"{"trigger": ["extra:*"], "watch": ["network:*"], "navigate": ["/secret/:id"], "request": ["notes.save"]}"#

    /// Runs the probe in `harness` and returns the codes it reported.
    static func probe(_ harness: PluginHarness, id: String) async throws -> [String: Int] {
        let codes = EventRecorder(bus: harness.bus, pattern: "\(id):codes")
        harness.bus.trigger("\(id):go")
        let data = try #require(try await codes.wait(for: "\(id):codes").first?.data.objectValue)
        return data.compactMapValues(\.intValue)
    }

    @Test("a granted call goes through, an ungranted one is denied with TRELLIS_ERROR_DENIED and never reaches the app",
          arguments: PluginIsolation.both)
    func enforced(isolation: PluginIsolation) async throws {
        let sandbox = try PluginSandbox()
        try sandbox.installProbing("prober", permissions: Self.grants)
        let harness = PluginHarness(sandbox: sandbox, isolation: isolation, routes: try Self.routes())
        #expect(await offThePool { harness.host.loadAll() }[id: "prober"]?.state == .loaded)
        let triggered = EventRecorder(bus: harness.bus, pattern: "*")

        let codes = try await Self.probe(harness, id: "prober")

        let denied = -4  // TRELLIS_ERROR_DENIED
        #expect(codes["trigger_own"] == 0 && codes["trigger_granted"] == 0, "\(codes)")
        #expect(codes["trigger_app"] == denied && codes["trigger_app_again"] == denied, "\(codes)")
        #expect((codes["watch_exact"] ?? 0) > 0 && (codes["watch_wildcard"] ?? 0) > 0, "\(codes)")
        #expect(codes["watch_everything"] == 0 && codes["watch_sync"] == 0, "\(codes)")
        #expect(codes["navigate_granted"] == 0 && codes["navigate_public"] == 0 && codes["navigate_unknown"] == 0, "\(codes)")
        #expect(codes["navigate_hidden"] == denied, "\(codes)")
        #expect(codes["request_granted"] == 0 && codes["request_own"] == 0, "\(codes)")
        #expect(codes["request_other"] == denied, "\(codes)")

        // What reached the app: the granted calls only; /secret/5 opens although not public.
        #expect(triggered.messages.contains("prober:note") && triggered.messages.contains("extra:thing"))
        #expect(!triggered.messages.contains("app:quit"))
        #expect(await eventually { harness.navigations.withLock { $0.count } == 3 })
        #expect(harness.navigations.withLock { $0 } == ["/secret/5 null granted", "/open null", "/nowhere null"])
        #expect(harness.requests.withLock { $0 } == ["notes.save null", "prober:refresh null"])

        // The granted watch receives; the denied ones never do.
        let saw = EventRecorder(bus: harness.bus, pattern: "prober:saw")
        harness.bus.trigger("sync:finished")
        harness.bus.trigger("network:on")
        let seen = try await saw.wait(for: "prober:saw", count: 2)  // network:on, by two watches
        #expect(seen.allSatisfy { $0.data["message"] == "network:on" }, "\(seen)")

        // Logged once per call and name, naming the permission to add.
        let denials = harness.logs.entries.map(\.message).filter { $0.contains("denied") }
        let appQuit = denials.filter { $0.contains(#"trigger "app:quit": denied"#) }
        #expect(appQuit.count == 1, "\(denials)")
        #expect(appQuit.first?.contains(#"no "trigger" permission covers it (granted: prober:*, extra:*)"#) == true, "\(denials)")
        #expect(denials.contains { $0.contains(#"watch "*": denied"#) }, "\(denials)")
        #expect(denials.contains { $0.contains(#"navigate "/hidden": denied: its route is not public"#) }, "\(denials)")
        #expect(denials.contains { $0.contains(#"handle_request "notes.delete": denied"#) }, "\(denials)")
        #expect(denials.count == 5, "\(denials)")
    }

    // One mode: only a plugin process has a socket to forge messages on.
    @Test("a plugin process that writes ungranted calls to its socket itself gains nothing: the shell checks again")
    func processCannotBypass() async throws {
        let sandbox = try PluginSandbox()
        try sandbox.installProbing("liar", permissions: "{}", liar: true)
        let harness = PluginHarness(sandbox: sandbox, isolation: .process, routes: try Self.routes())
        #expect(await offThePool { harness.host.loadAll() }[id: "liar"]?.state == .loaded)
        let triggered = EventRecorder(bus: harness.bus, pattern: "*")
        let watches = harness.bus.watchCount

        harness.bus.trigger("liar:go")
        _ = try await triggered.wait(for: "liar:lied")  // sent after the forged messages, on the same socket

        #expect(!triggered.messages.contains("app:quit"), "\(triggered.messages)")
        #expect(harness.navigations.withLock { $0 }.isEmpty)
        #expect(harness.requests.withLock { $0 }.isEmpty)
        let denials = harness.logs.entries.map(\.message).filter { $0.contains("denied") }
        #expect(denials.count == 4, "\(denials)")
        #expect(harness.bus.watchCount == watches, "the forged watch of \"*\" was made")
    }

    @Test("a manifest without \"permissions\" (ABI 1 or 2) gets its own namespace only: no implicit trust",
          arguments: PluginIsolation.both)
    func noImplicitTrust(isolation: PluginIsolation) async throws {
        let sandbox = try PluginSandbox()
        try sandbox.installProbing("old", permissions: nil)
        let harness = PluginHarness(sandbox: sandbox, isolation: isolation, routes: try Self.routes())
        #expect(await harness.load()[id: "old"]?.state == .loaded)

        let codes = try await Self.probe(harness, id: "old")

        #expect(codes["trigger_own"] == 0 && codes["request_own"] == 0, "\(codes)")
        #expect(codes["trigger_app"] == -4 && codes["request_other"] == -4, "\(codes)")
        #expect(codes["watch_everything"] == 0 && codes["watch_sync"] == 0, "\(codes)")
        #expect(codes["navigate_public"] == 0 && codes["navigate_hidden"] == -4 && codes["navigate_granted"] == -4, "\(codes)")
        let table = PluginReport.table(harness.host.reports)
        #expect(table.contains("permissions: trigger: old:* · watch: old:* · navigate: public routes · request: old:*"), "\(table)")
    }

    @Test("an empty grant leaves the plugin its own namespace and public routes", arguments: PluginIsolation.both)
    func ownNamespaceOnly(isolation: PluginIsolation) async throws {
        let sandbox = try PluginSandbox()
        try sandbox.installProbing("lonely", permissions: "{}")
        let harness = PluginHarness(sandbox: sandbox, isolation: isolation, routes: try Self.routes())
        #expect(await harness.load()[id: "lonely"]?.state == .loaded)

        let codes = try await Self.probe(harness, id: "lonely")

        #expect(codes["trigger_own"] == 0 && codes["request_own"] == 0 && codes["navigate_public"] == 0, "\(codes)")
        #expect(codes["trigger_granted"] == -4 && codes["request_granted"] == -4 && codes["navigate_granted"] == -4, "\(codes)")
        #expect(codes["watch_exact"] == 0 && codes["watch_wildcard"] == 0, "\(codes)")
        let table = PluginReport.table(harness.host.reports)
        #expect(table.contains("permissions: trigger: lonely:* · watch: lonely:* · navigate: public routes · request: lonely:*"), "\(table)")
    }

    @Test("permissions in the manifest: errors name the file and the key", arguments: [
        (#"{"read": ["x"]}"#, #"key "permissions.read": unknown permission (known: "trigger", "watch", "navigate", "request", "contribute", "files", "network", "exec", "environment")"#),
        (#"["trigger"]"#, "permissions"),
        (#"{"watch": "network:*"}"#, #"key "permissions.watch""#),
        (#"{"trigger": [""]}"#, #"key "permissions.trigger": "" is not a pattern"#),
        (#"{"navigate": ["no-slash"]}"#, #"key "permissions.navigate": "no-slash" is not a route pattern"#),
    ])
    func manifestErrors(permissions: String, expected: String) throws {
        let text = #"{"id": "p", "name": "P", "version": "1", "abiVersion": 2, "library": "libp.so", "permissions": \#(permissions)}"#
        #expect {
            try PluginManifest(json: try JSONValue(jsonString: text), file: "/plugins/p/plugin.json")
        } throws: { error in
            let message = "\(error)"
            return message.contains("/plugins/p/plugin.json") && message.contains(expected)
        }
    }

    @Test("a grant covers a watch pattern only as text: network:* covers network:on and network:*, not * or net*")
    func watchCoverage() {
        let permissions = PluginPermissions(grants: [.watch: ["network:*"]])
        #expect(permissions.allows(.watch, "network:on", pluginID: "p"))
        #expect(permissions.allows(.watch, "network:*", pluginID: "p"))
        #expect(permissions.allows(.watch, "p:anything", pluginID: "p"))
        #expect(!permissions.allows(.watch, "*", pluginID: "p"))
        #expect(!permissions.allows(.watch, "net*", pluginID: "p"))
        #expect(!permissions.allows(.watch, "pp:x", pluginID: "p"))
    }
}
