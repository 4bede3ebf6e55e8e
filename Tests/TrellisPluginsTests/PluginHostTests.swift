import Foundation
import Testing
@testable import TrellisPlugins
import TrellisCore
import TrellisTesting

@Suite("Plugin host")
struct PluginHostTests {
    @Test("host and plugin share one bus: the plugin's watch sees host triggers, the host sees the plugin's")
    func sharedBus() async throws {
        let sandbox = try PluginSandbox()
        try sandbox.install("Template")
        let harness = PluginHarness(sandbox: sandbox)
        let pongs = harness.record("template:pong")

        let reports = await harness.load()
        #expect(reports[id: "template"]?.state == .loaded)
        harness.bus.trigger("template:ping", ["n": 1])

        #expect(try await pongs.settled(count: 1) == [#"template:pong {"greeting":"pong","ping":{"n":1}}"#])
    }

    @Test("a host's plugins keep their data and temporary files in the folders of the environment it was given, not the process's")
    func givenEnvironment() async throws {
        let sandbox = try PluginSandbox()
        let id = "keeper-\(UInt32.random(in: 0...UInt32.max))"
        try sandbox.install("Template", as: id)
        let harness = PluginHarness(sandbox: sandbox)
        #expect(await harness.load()[id: id]?.state == .loaded)

        let given = try #require(sandbox.environment["XDG_DATA_HOME"])
        let data = URL(fileURLWithPath: given).appendingPathComponent("trellis/plugin-data/\(id)")
        #expect(FileManager.default.fileExists(atPath: data.path), "\(data.path)")
        let cache = try #require(sandbox.environment["XDG_CACHE_HOME"])
        #expect(FileManager.default.fileExists(atPath: cache + "/trellis/plugin-tmp/\(id)"))
        let own = PluginConfinement.dataFolder(of: id, environment: ProcessInfo.processInfo.environment)
        #expect(own.path != data.path && !FileManager.default.fileExists(atPath: own.path), "\(own.path) was made")
    }

    @Test("the build's own plugins load from the source tree, with their libraries from the build folder")
    func buildTreePlugins() async throws {
        let (harness, reports, sandbox) = try await Self.loadBuildTreePlugins()
        defer { withExtendedLifetime(sandbox) {} }

        for id in ["network-activity", "location", "template", "c-hello"] {
            #expect(reports[id: id]?.state == .loaded, "\(reports[id: id].map(String.init(describing:)) ?? "\(id) not found")")
            #expect(reports[id: id]?.origin == .build)
        }
        #expect(Set(harness.services.services.filter(\.isRunning).map(\.name)) == ["net_state", "location", "template", "c_hello"])
        try await harness.services.stop("location")
    }

    @Test("a Swift plugin's library carries the SDK and TrellisShared, not a copy of TrellisCore")
    func pluginLibrariesAreSmall() async throws {
        let (harness, reports, sandbox) = try await Self.loadBuildTreePlugins()
        defer { withExtendedLifetime(sandbox) {} }
        try await harness.services.stop("location")
        for id in ["network-activity", "location", "template"] {
            let library = try #require(reports[id: id]?.library, "\(id) has no library")
            let bytes = try Data(contentsOf: library)
            // Every symbol and type name of TrellisCore contains its mangled module name.
            #expect(bytes.range(of: Data("11TrellisCore".utf8)) == nil, "\(library.lastPathComponent) contains TrellisCore")
            #expect(bytes.range(of: Data("13TrellisShared".utf8)) != nil, "\(library.lastPathComponent) lacks TrellisShared")
            #expect(bytes.count < 4 << 20, "\(library.lastPathComponent) is \(bytes.count) bytes")
        }
    }

    /// Loads the build's own plugins (source tree and build folder) into a fresh host, with
    /// an empty sandbox for the user's folders (returned too: it deletes its folder when it goes).
    static func loadBuildTreePlugins() async throws -> (PluginHarness, [PluginReport], PluginSandbox) {
        let sandbox = try PluginSandbox()
        let paths = PluginSearchPath.standard(environment: ["XDG_DATA_HOME": sandbox.root.path, "HOME": sandbox.root.path],
                                              executable: RunningExecutable.url)
        let harness = PluginHarness(searchPaths: paths, settingsURL: sandbox.settingsURL, environment: sandbox.environment)
        let reports = await harness.load(serviceOptions: ["location": ["interval": 3600, "latitude": 1, "longitude": 2]])
        return (harness, reports, sandbox)
    }

    @Test("a plugin written in plain C loads, triggers events and echoes JSON data through the ABI")
    func plainCPlugin() async throws {
        let sandbox = try PluginSandbox()
        try sandbox.install("CHello")
        let harness = PluginHarness(sandbox: sandbox)
        let hello = harness.record("hello:*")

        let reports = await harness.load()
        #expect(reports[id: "c-hello"]?.state == .loaded)
        #expect(try await hello.settled(count: 1) == [#"hello:started {"greeting":"bonjour"}"#])

        harness.bus.trigger("hello:ping", ["text": "Фэнтези", "list": [1, 2]])
        // The host's ping is recorded too: started, ping, then the pong (later, from a process).
        #expect(try await hello.settled(count: 3).last == #"hello:pong {"list":[1,2],"text":"Фэнтези"}"#)
        #expect(await eventually { harness.logs.entries.contains { $0.level == .info && $0.message == "hello from C" } })
    }

    @Test("a plugin's navigate and front-controller requests reach the closures the app injected")
    func navigateAndRequest() async throws {
        let sandbox = try PluginSandbox()
        try sandbox.install("CHello") { $0["routes"] = nil }  // /hello is then not its own route
        let harness = PluginHarness(sandbox: sandbox)
        await harness.load()

        harness.bus.trigger("hello:open", ["id": 5])
        harness.bus.trigger("hello:request", ["who": "world"])

        #expect(await eventually { harness.navigations.withLock { $0 } == [#"/hello {"id":5}"#] }, "\(harness.navigations.withLock { $0 })")
        #expect(await eventually { harness.requests.withLock { $0 } == [#"hello.greet {"who":"world"}"#] }, "\(harness.requests.withLock { $0 })")
    }

    @Test("disabling a plugin stops its services and watches, is remembered, and enabling restarts it")
    func disableAndEnable() async throws {
        let sandbox = try PluginSandbox()
        try sandbox.install("Template")
        let harness = PluginHarness(sandbox: sandbox)
        let pongs = harness.record("template:pong")
        await harness.load()

        let disabled = try await harness.setEnabled("template", false)
        #expect(disabled?.state == .disabled)
        #expect(!harness.services.isRunning("template"))
        harness.bus.trigger("template:ping")
        await #expect(throws: ServiceError.self) { try await harness.services.start("template") }
        #expect(try JSONValue(jsonData: Data(contentsOf: sandbox.settingsURL)) == ["disabled": ["template"]])

        let later = PluginHarness(sandbox: sandbox)
        #expect(await later.load()[id: "template"]?.state == .disabled)

        let enabled = try await harness.setEnabled("template", true)
        #expect(enabled?.state == .loaded)
        harness.bus.trigger("template:ping", ["after": true])
        // Only the ping sent while enabled is answered.
        #expect(try await pongs.settled(count: 1) == [#"template:pong {"greeting":"pong","ping":{"after":true}}"#])
    }

    @Test("a plugin disabled at start-up loads when enabled")
    func enableLoadsDisabledPlugin() async throws {
        let sandbox = try PluginSandbox()
        try sandbox.install("Template")
        let settings = PluginSettings(url: sandbox.settingsURL)
        try settings.setEnabled("template", false)
        let harness = PluginHarness(sandbox: sandbox)
        #expect(await harness.load()[id: "template"]?.state == .disabled)
        #expect(!harness.services.services.contains { $0.name == "template" })

        #expect(try await harness.setEnabled("template", true)?.state == .loaded)
        #expect(harness.services.isRunning("template"))
    }

    @Test("a watcher of what a plugin's start triggers may disable that plugin: applied once the load is done")
    func setEnabledFromAWatcherDuringLoad() async throws {
        let sandbox = try PluginSandbox()
        try sandbox.install("Location")
        let harness = PluginHarness(sandbox: sandbox)
        final class WatchOwner: Sendable {}
        let owner = WatchOwner()
        let disabling = LockedState<[Task<PluginReport?, any Error>]>([])
        // The Location plugin's start triggers location:error at once, for a track it cannot
        // read: the watcher runs before the start returns, and asks for the plugin to be
        // disabled, which waits for the load in progress.
        harness.bus.watch("location:error", owner: owner) { _, _ in
            disabling.withLock { $0.append(Task { try await harness.host.setEnabled("location", false) }) }
        }
        let missing = sandbox.root.appendingPathComponent("nowhere.json").path
        let reports = await harness.load(serviceOptions: ["location": ["track": .string(missing)]])

        #expect(reports[id: "location"]?.state == .loaded, "the load was not cut short")
        let first = try #require(disabling.withLock { $0.first })
        #expect(try await first.value?.state == .disabled)
        #expect(!harness.services.isRunning("location"))

        // Enabled again, it starts, triggers location:error again, and the watcher's call
        // disables it once the enabling is done.
        let enabled = try await harness.setEnabled("location", true)
        #expect(enabled?.state == .loaded)
        let second = try #require(disabling.withLock { $0.count == 2 ? $0.last : nil })
        #expect(try await second.value?.state == .disabled)
        #expect(!harness.services.isRunning("location"))
    }

    @Test("plugins load after their dependencies, whatever the folder order")
    func dependencyOrder() async throws {
        let sandbox = try PluginSandbox()
        try sandbox.install("CHello", as: "a-first") { $0["dependencies"] = ["z-last"] }
        try sandbox.install("Template", as: "z-last")
        let harness = PluginHarness(sandbox: sandbox)

        let reports = await harness.load()

        #expect(reports.map(\.id) == ["a-first", "z-last"])
        #expect(reports.allSatisfy { $0.state == .loaded })
        #expect(harness.services.services.map(\.name) == ["template", "c_hello"])
    }

    @Test("the report table lists id, version, state, origin and the reason of a failure")
    func reportTable() async throws {
        let sandbox = try PluginSandbox()
        try sandbox.install("Template")
        try sandbox.writeManifest(folder: "broken", "{ not json")
        let harness = PluginHarness(sandbox: sandbox)

        let table = PluginReport.table(await harness.load())

        let lines = table.split(separator: "\n").map(String.init)
        #expect(lines[0].hasPrefix("ID"))
        #expect(lines.contains { $0.hasPrefix("broken") && $0.contains("failed") && $0.hasSuffix("command line") })
        #expect(lines.contains { $0.contains("plugin.json: the manifest is not valid JSON") })
        #expect(lines.contains { $0.hasPrefix("template") && $0.contains("0.1.0") && $0.contains("loaded") })
        #expect(lines.contains("    permissions: trigger: template:* · watch: template:* · navigate: public routes, its own routes · request: template:* · contribute: /template and below"),
                "\(table)")
    }
}

@Suite("Shell plugin host")
struct ShellPluginHostTests {
    @Test("a plugin's navigation request drives the shell's navigator on the main actor")
    @MainActor
    func navigationReachesShell() async throws {
        let sandbox = try PluginSandbox()
        try sandbox.install("CHello")
        let shell = Shell()
        let visits = Trace()
        try shell.route("/hello", isPublic: true) { values in visits.record("\(values.path) \(values.data) main=\(MainQueueProbe.isOnMainQueue)") }
        let host = shell.pluginHost(searchPaths: [PluginSearchPath(directory: sandbox.root, origin: .commandLine)],
                                    settings: PluginSettings(url: sandbox.settingsURL), environment: sandbox.environment,
                                    handleRequest: { _, _ in })
        #expect(await host.loadAll()[id: "c-hello"]?.state == .loaded)

        let bus = shell.bus
        await Task.detached { bus.trigger("hello:open", ["id": 5]) }.value

        #expect(await eventually { !visits.all.isEmpty })
        #expect(visits.all == [#"/hello {"id":5} main=true"#])
    }

    @Test("a plugin cannot open a route that is not public (such as the demo's /events)")
    @MainActor
    func nonPublicRouteRefused() async throws {
        let sandbox = try PluginSandbox()
        try sandbox.install("CHello") { $0["routes"] = nil }  // /hello is then not its own route
        let shell = Shell()
        let visits = Trace()
        try shell.route("/hello") { values in visits.record(values.path) }
        let host = shell.pluginHost(searchPaths: [PluginSearchPath(directory: sandbox.root, origin: .commandLine)],
                                    settings: PluginSettings(url: sandbox.settingsURL), environment: sandbox.environment,
                                    handleRequest: { _, _ in })
        #expect(await host.loadAll()[id: "c-hello"]?.state == .loaded)
        let pongs = EventRecorder(bus: shell.bus, pattern: "hello:pong")
        shell.bus.trigger("hello:open", ["id": 5])  // c-hello asks for /hello
        shell.bus.trigger("hello:ping")             // answered after that request was passed on
        _ = try await pongs.wait(for: "hello:pong")
        for _ in 0..<20 { await Task.yield() }
        #expect(visits.all.isEmpty, "the plugin opened \(visits.all)")
        try shell.navigate(to: "/hello")  // the app itself may
        #expect(visits.all == ["/hello"])
    }
}
