import Foundation
import Logging
@testable import TrellisPlugins
import TrellisCore
import TrellisTesting

/// The plugins this build made: the source tree's `plugins/<Folder>/plugin.json` and the
/// libraries SwiftPM put next to the test executable.
enum BuiltPlugins {
    /// The repository root (this file is Tests/TrellisPluginsTests/Support/PluginSandbox.swift).
    static let repository = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()

    /// The folder holding the test executable and the plugin libraries.
    static let binDirectory = RunningExecutable.url.deletingLastPathComponent()

    /// The source folder of plugin `folder` (e.g. "Template").
    static func folder(_ folder: String) -> URL {
        repository.appendingPathComponent("plugins/\(folder)")
    }

    /// The manifest of plugin `folder`, as JSON.
    static func manifest(_ folder: String) throws -> JSONValue {
        try JSONValue(jsonData: Data(contentsOf: self.folder(folder).appendingPathComponent("plugin.json")))
    }

    /// The built library named by plugin `folder`'s manifest.
    static func library(_ folder: String) throws -> URL {
        binDirectory.appendingPathComponent(try manifest(folder)["library"]?.stringValue ?? "")
    }
}

/// A temporary plugins folder for one test, removed when the sandbox is released. Plugins are
/// installed as copies (a fresh file per copy, so `dlopen` really loads each one).
final class PluginSandbox: Sendable {
    let root: URL
    /// The environment its hosts find the plugins' data and temporary folders from: folders of
    /// its own (`TestFolder.environment`), not the user's.
    let environment: [String: String]

    init() throws {
        // Inside the test process's folder (TestFolder), so that a sandbox a plugin host keeps
        // alive to the end of the run is removed then.
        root = try TestFolder.make("plugins")
        environment = try TestFolder.environment("plugin-host")
        try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: root.path)
    }

    deinit {
        try? FileManager.default.removeItem(at: root)
    }

    /// Installs a copy of the built plugin `folder` into `<root>/<id>/`, with the manifest's
    /// id set to `id` (the folder's own id by default) and then changed by `edit`; the library
    /// is copied under the name the (edited) manifest gives.
    @discardableResult
    func install(_ folder: String, as id: String? = nil, edit: (inout JSONValue) -> Void = { _ in }) throws -> URL {
        var manifest = try BuiltPlugins.manifest(folder)
        if let id { manifest["id"] = .string(id) }
        edit(&manifest)
        let target = root.appendingPathComponent(manifest["id"]?.stringValue ?? folder)
        try FileManager.default.createDirectory(at: target, withIntermediateDirectories: true)
        try manifest.jsonData().write(to: target.appendingPathComponent("plugin.json"))
        if let library = manifest["library"]?.stringValue, !library.isEmpty, !library.contains("/") {
            try FileManager.default.copyItem(at: try BuiltPlugins.library(folder),
                                             to: target.appendingPathComponent(library))
        }
        return target
    }

    /// Writes `<root>/<name>/plugin.json` with exactly `text`.
    @discardableResult
    func writeManifest(folder name: String, _ text: String) throws -> URL {
        let target = root.appendingPathComponent(name)
        try FileManager.default.createDirectory(at: target, withIntermediateDirectories: true)
        try Data(text.utf8).write(to: target.appendingPathComponent("plugin.json"))
        return target
    }

    /// The settings file of this sandbox.
    var settingsURL: URL { root.appendingPathComponent("settings/plugins.json") }
}

/// A bus, a registry and a plugin host over one sandbox, recording what plugins ask of the
/// navigator and the front controller.
final class PluginHarness: Sendable {
    let bus: EventBus
    let services: ServiceRegistry
    let host: PluginHost
    let logs = LogCapture()
    let navigations = LockedState<[String]>([])
    let requests = LockedState<[String]>([])

    /// `routes`: the app's routes the plugins' navigation permissions are checked against.
    /// `clock`: the time the host's deadlines and back-off run on (a `ManualClock` for the tests
    /// of deadlines, which then pass in microseconds).
    init(searchPaths: [PluginSearchPath], settingsURL: URL, environment: [String: String], security: PluginFileSecurity = PluginFileSecurity(),
         routes: RouteTable<RouteTarget>? = nil, deadlines: PluginDeadlines = .forTests, limits: PluginLimits = PluginLimits(),
         clock: PluginClock = .continuous, memoryLimit: Int? = PluginHost.defaultMemoryLimit, landlockABI: Int? = nil) {
        bus = EventBus()
        services = ServiceRegistry(bus: bus, logger: logs.logger(label: "trellis.services"))
        let navigations = self.navigations
        let requests = self.requests
        host = PluginHost(bus: bus, services: services, searchPaths: searchPaths,
                          settings: PluginSettings(url: settingsURL), security: security,
                          routes: routes, deadlines: deadlines, limits: limits, clock: clock, memoryLimit: memoryLimit,
                          landlockABI: landlockABI, environment: environment,
                          navigate: { request in navigations.withLock { $0.append("\(request.path) \(request.data)\(request.isGranted ? " granted" : "")") } },
                          handleRequest: { command, parameters in requests.withLock { $0.append("\(command) \(parameters)") } },
                          logger: logs.logger(label: "trellis.plugins"))
    }

    convenience init(sandbox: PluginSandbox, security: PluginFileSecurity = PluginFileSecurity(),
                     routes: RouteTable<RouteTarget>? = nil, deadlines: PluginDeadlines = .forTests,
                     limits: PluginLimits = PluginLimits(), clock: PluginClock = .continuous,
                     memoryLimit: Int? = PluginHost.defaultMemoryLimit, landlockABI: Int? = nil) {
        self.init(searchPaths: [PluginSearchPath(directory: sandbox.root, origin: .commandLine)],
                  settingsURL: sandbox.settingsURL, environment: sandbox.environment, security: security, routes: routes,
                  deadlines: deadlines, limits: limits, clock: clock, memoryLimit: memoryLimit, landlockABI: landlockABI)
    }

    /// `host.loadAll`.
    @discardableResult
    func load(serviceOptions: [String: JSONValue] = [:]) async -> [PluginReport] {
        await host.loadAll(serviceOptions: serviceOptions)
    }

    /// `host.setEnabled`.
    @discardableResult
    func setEnabled(_ id: String, _ enabled: Bool) async throws -> PluginReport? {
        try await host.setEnabled(id, enabled)
    }

    /// `services.start`.
    func start(_ name: String, options: JSONValue = .null) async throws {
        try await services.start(name, options: options)
    }

    /// `services.stop`.
    func stop(_ name: String) async throws {
        try await services.stop(name)
    }

    /// Waits (in real time) until the host's pending work lists `work`: the moment a test on a
    /// test clock may advance it past a deadline that is all the host waits for.
    func waits(for work: String) async -> Bool {
        await eventually { self.host.pendingWork.contains(work) }
    }

    /// The events plugin `id`'s process was sent and has not said done for.
    func eventsPending(of id: String) -> Int? {
        host.state.withLock { $0.connections[id] }?.sent.withLock { $0.messages.count }
    }

    /// Records every event matching `pattern` as "message data".
    func record(_ pattern: String) -> Trace {
        let log = Trace()
        bus.watch(pattern, owner: log) { log, event in log.record("\(event.message) \(event.data)") }
        return log
    }
}

extension Array where Element == PluginReport {
    /// The report of plugin `id`.
    subscript(id id: String) -> PluginReport? { first { $0.id == id } }
}

extension Trace {
    /// Waits until the trace holds at least `count` entries and returns them all: a plugin's
    /// answer crosses a socket, so it arrives after `trigger` returns.
    @discardableResult
    func settled(count: Int, timeout: Duration = testDeadline) async throws -> [String] {
        try await wait(until: { $0.count >= count }, timeout: timeout)
    }
}

extension PluginDeadlines {
    /// The product's deadlines, stretched by TRELLIS_TEST_PATIENCE (set by .ci/tsan, under which
    /// a plugin process answers several times slower); tests of the deadlines pass their own.
    static var forTests: PluginDeadlines {
        let standard = PluginDeadlines()
        return PluginDeadlines(start: standard.start * testPatience, stop: standard.stop * testPatience,
                               event: standard.event * testPatience)
    }

    /// An hour of the clock to start, stop and handle an event: for tests of something other
    /// than deadlines that move a test clock in steps until a condition holds while a plugin's
    /// process works. Those steps also move the clock while the process, on real time, has not
    /// yet written what comes next; on a loaded machine they can add up to a product deadline
    /// (a trigger flood's plugin was once killed so, mid-test).
    static var patient: PluginDeadlines {
        PluginDeadlines(start: .seconds(3600), stop: .seconds(3600), event: .seconds(3600))
    }
}
