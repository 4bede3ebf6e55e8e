import Foundation
import Testing
@testable import TrellisCore
import TrellisTesting

@Suite("Plugin host")
struct PluginHostTests {
    @Test("host and plugin share one bus: the plugin's watch sees host triggers, the host sees the plugin's")
    func sharedBus() throws {
        let sandbox = try PluginSandbox()
        try sandbox.install("Template")
        let harness = PluginHarness(sandbox: sandbox)
        let pongs = harness.record("template:pong")

        let reports = harness.host.loadAll()
        #expect(reports[id: "template"]?.state == .loaded)
        harness.bus.trigger("template:ping", ["n": 1])

        #expect(pongs.all == [#"template:pong {"greeting":"pong","ping":{"n":1}}"#])
    }

    @Test("the build's own plugins load from the source tree, with their libraries from the build folder")
    func buildTreePlugins() throws {
        let (harness, reports, sandbox) = try Self.loadBuildTreePlugins()
        defer { withExtendedLifetime(sandbox) {} }

        for id in ["network-activity", "location", "template", "c-hello"] {
            #expect(reports[id: id]?.state == .loaded, "\(reports[id: id].map(String.init(describing:)) ?? "\(id) not found")")
            #expect(reports[id: id]?.origin == .build)
        }
        #expect(Set(harness.services.services.filter(\.isRunning).map(\.name)) == ["net_state", "location", "template", "c_hello"])
        try harness.services.stop("location")
    }

    @Test("a Swift plugin's library carries the SDK and TrellisShared, not a copy of TrellisCore")
    func pluginLibrariesAreSmall() throws {
        let (harness, reports, sandbox) = try Self.loadBuildTreePlugins()
        defer { withExtendedLifetime(sandbox) {} }
        defer { try? harness.services.stop("location") }
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
    static func loadBuildTreePlugins() throws -> (PluginHarness, [PluginReport], PluginSandbox) {
        let sandbox = try PluginSandbox()
        let paths = PluginSearchPath.standard(environment: ["XDG_DATA_HOME": sandbox.root.path, "HOME": sandbox.root.path],
                                              executable: PluginSearchPath.executableURL())
        let harness = PluginHarness(searchPaths: paths, settingsURL: sandbox.settingsURL)
        let reports = harness.host.loadAll(serviceOptions: ["location": ["interval": 3600, "latitude": 1, "longitude": 2]])
        return (harness, reports, sandbox)
    }

    @Test("a plugin written in plain C loads, triggers events and echoes JSON data through the ABI")
    func plainCPlugin() throws {
        let sandbox = try PluginSandbox()
        try sandbox.install("CHello")
        let harness = PluginHarness(sandbox: sandbox)
        let hello = harness.record("hello:*")

        let reports = harness.host.loadAll()
        #expect(reports[id: "c-hello"]?.state == .loaded)
        #expect(hello.all == [#"hello:started {"greeting":"bonjour"}"#])

        harness.bus.trigger("hello:ping", ["text": "Фэнтези", "list": [1, 2]])
        #expect(hello.all.last == #"hello:pong {"list":[1,2],"text":"Фэнтези"}"#)
        #expect(harness.logs.entries.contains { $0.level == .info && $0.message == "hello from C" })
    }

    @Test("a plugin's navigate and front-controller requests reach the closures the app injected")
    func navigateAndRequest() throws {
        let sandbox = try PluginSandbox()
        try sandbox.install("CHello")
        let harness = PluginHarness(sandbox: sandbox)
        harness.host.loadAll()

        harness.bus.trigger("hello:open", ["id": 5])
        harness.bus.trigger("hello:request", ["who": "world"])

        #expect(harness.navigations.withLock { $0 } == [#"/hello {"id":5}"#])
        #expect(harness.requests.withLock { $0 } == [#"hello.greet {"who":"world"}"#])
    }

    @Test("disabling a plugin stops its services and watches, is remembered, and enabling restarts it")
    func disableAndEnable() throws {
        let sandbox = try PluginSandbox()
        try sandbox.install("Template")
        let harness = PluginHarness(sandbox: sandbox)
        let pongs = harness.record("template:pong")
        harness.host.loadAll()

        let disabled = try harness.host.setEnabled("template", false)
        #expect(disabled?.state == .disabled)
        #expect(!harness.services.isRunning("template"))
        harness.bus.trigger("template:ping")
        #expect(pongs.all.isEmpty)
        #expect(throws: ServiceError.self) { try harness.services.start("template") }
        #expect(try JSONValue(jsonData: Data(contentsOf: sandbox.settingsURL)) == ["disabled": ["template"]])

        let later = PluginHarness(sandbox: sandbox)
        #expect(later.host.loadAll()[id: "template"]?.state == .disabled)

        let enabled = try harness.host.setEnabled("template", true)
        #expect(enabled?.state == .loaded)
        harness.bus.trigger("template:ping")
        #expect(pongs.all.count == 1)
    }

    @Test("a plugin disabled at start-up loads when enabled")
    func enableLoadsDisabledPlugin() throws {
        let sandbox = try PluginSandbox()
        try sandbox.install("Template")
        let settings = PluginSettings(url: sandbox.settingsURL)
        try settings.setEnabled("template", false)
        let harness = PluginHarness(sandbox: sandbox)
        #expect(harness.host.loadAll()[id: "template"]?.state == .disabled)
        #expect(!harness.services.services.contains { $0.name == "template" })

        #expect(try harness.host.setEnabled("template", true)?.state == .loaded)
        #expect(harness.services.isRunning("template"))
    }

    @Test("a watcher run by a plugin's start may disable that plugin: applied before loadAll returns")
    func setEnabledFromAWatcherDuringLoad() throws {
        let sandbox = try PluginSandbox()
        try sandbox.install("Location")
        let harness = PluginHarness(sandbox: sandbox)
        let owner = WatchOwner()
        let answers = LockedState<[PluginReport.State?]>([])
        // The Location plugin's start triggers location:error at once, on the loading thread,
        // for a track it cannot read.
        harness.bus.watch("location:error", owner: owner) { _, _ in
            let answer = try? harness.host.setEnabled("location", false)
            answers.withLock { $0.append(answer?.state) }
        }
        let missing = sandbox.root.appendingPathComponent("nowhere.json").path
        let reports = harness.host.loadAll(serviceOptions: ["location": ["track": .string(missing)]])

        #expect(answers.withLock { $0 } == [nil], "queued: the plugin had no report yet")
        #expect(reports[id: "location"]?.state == .disabled)
        #expect(!harness.services.isRunning("location"))

        // Enabled again, it starts, triggers location:error again, and the watcher's queued
        // call disables it before this call returns.
        let enabled = try harness.host.setEnabled("location", true)
        #expect(answers.withLock { $0.count } == 2)
        #expect(enabled?.state == .disabled)
        #expect(!harness.services.isRunning("location"))
    }

    @Test("plugins load after their dependencies, whatever the folder order")
    func dependencyOrder() throws {
        let sandbox = try PluginSandbox()
        try sandbox.install("CHello", as: "a-first") { $0["dependencies"] = ["z-last"] }
        try sandbox.install("Template", as: "z-last")
        let harness = PluginHarness(sandbox: sandbox)

        let reports = harness.host.loadAll()

        #expect(reports.map(\.id) == ["a-first", "z-last"])
        #expect(reports.allSatisfy { $0.state == .loaded })
        #expect(harness.services.services.map(\.name) == ["template", "c_hello"])
    }

    @Test("the report table lists id, version, state, origin and the reason of a failure")
    func reportTable() throws {
        let sandbox = try PluginSandbox()
        try sandbox.install("Template")
        try sandbox.writeManifest(folder: "broken", "{ not json")
        let harness = PluginHarness(sandbox: sandbox)

        let table = PluginReport.table(harness.host.loadAll())

        let lines = table.split(separator: "\n").map(String.init)
        #expect(lines[0].hasPrefix("ID"))
        #expect(lines.contains { $0.hasPrefix("broken") && $0.contains("failed") && $0.hasSuffix("command line") })
        #expect(lines.contains { $0.contains("plugin.json: the manifest is not valid JSON") })
        #expect(lines.contains { $0.hasPrefix("template") && $0.contains("0.1.0") && $0.contains("loaded") })
        #expect(lines.contains("    permissions: trigger: template:* · watch: template:* · navigate: public routes · request: template:*"),
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
                                    settings: PluginSettings(url: sandbox.settingsURL), handleRequest: { _, _ in })
        #expect(host.loadAll()[id: "c-hello"]?.state == .loaded)

        let bus = shell.bus
        await Task.detached { bus.trigger("hello:open", ["id": 5]) }.value

        #expect(await eventually { !visits.all.isEmpty })
        #expect(visits.all == [#"/hello {"id":5} main=true"#])
    }

    @Test("a plugin cannot open a route that is not public (such as the demo's /events)")
    @MainActor
    func nonPublicRouteRefused() async throws {
        let sandbox = try PluginSandbox()
        try sandbox.install("CHello")
        let shell = Shell()
        let visits = Trace()
        try shell.route("/hello") { values in visits.record(values.path) }
        let host = shell.pluginHost(searchPaths: [PluginSearchPath(directory: sandbox.root, origin: .commandLine)],
                                    settings: PluginSettings(url: sandbox.settingsURL), handleRequest: { _, _ in })
        #expect(host.loadAll()[id: "c-hello"]?.state == .loaded)
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
