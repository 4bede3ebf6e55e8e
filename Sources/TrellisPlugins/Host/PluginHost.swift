import Foundation
import Logging
import TrellisCore

/// The plugin engine: finds plugins in the search paths, starts the enabled ones, each in a
/// process of its own, in dependency order, onto the app's bus and service registry, and reports
/// on every plugin it found (libpeas's `PeasEngine`). A plugin that fails is reported with the
/// reason and skipped; the shell and the other plugins go on.
///
/// ```swift
/// let host = PluginHost(bus: shell.bus, services: shell.services,
///                       searchPaths: PluginSearchPath.standard(pluginDirectories: options.pluginDirs),
///                       settings: PluginSettings(),
///                       routes: shell.routes,
///                       navigate: { request in
///                           Task { @MainActor in try? shell.navigate(to: request.path, data: request.data, external: request.isExternal) }
///                       },
///                       handleRequest: { command, parameters in /* the front controller */ })
/// for report in await host.loadAll() where report.state.failure != nil {
///     logger.warning("\(report)")
/// }
/// ```
///
/// Disabling a loaded plugin stops its services, removes its watches and ends its process;
/// enabling it again starts a new process and its autostart services.
///
/// ## What is asynchronous
/// Everything that waits for a plugin process: ``loadAll(serviceOptions:)``,
/// ``finishStartup()``, ``setEnabled(_:_:)``, ``activate(_:)``, ``reload(_:)`` and
/// ``restartByUser(_:)`` are `async`, and return once the plugins concerned have answered,
/// failed or missed their deadlines (``PluginDeadlines``). They run one at a time, in the order
/// they were called, from any task. No thread waits for a plugin, and the main actor never does.
/// What only reads or sends returns at once: ``reports``, ``discover(serviceOptions:)``,
/// ``invoke(_:page:)``, ``setSetting(_:of:to:)``, ``kill(_:because:)``.
///
/// Events cross the other way without waiting: a plugin's watch is a synchronous watcher of the
/// bus that writes the event to the plugin's socket and returns, so `trigger` returns before the
/// plugin has seen it; what the plugin triggers in answer comes later
/// (``pendingWork`` says whether some is still due).
public final class PluginHost: Sendable {
    struct State: Sendable {
        var reports: [PluginReport] = []
        var contexts: [String: PluginContext] = [:]
        var loaded: [String: PluginLoader.Loaded] = [:]
        var crashes: [String: [Duration]] = [:]
        var options: [String: JSONValue] = [:]
        var settingsPoller: FileChangePoller?
        /// The owners of the watches that activate waiting plugins, by plugin.
        var activations: [String: ActivationWatch] = [:]
        /// The plugins ``discover(serviceOptions:)`` left for ``finishStartup()``, in load order.
        var deferred: [String] = []
        /// The plugins being loaded now.
        var starting: Set<String> = []
        /// Each plugin's latest process, by plugin id (perhaps ended).
        var connections: [String: PluginConnection] = [:]
    }

    /// The default ``init(bus:services:searchPaths:settings:security:routes:deadlines:limits:clock:memoryLimit:landlockABI:environment:navigate:handleRequest:logger:)``
    /// memory limit of a plugin process: 1 GiB.
    public static let defaultMemoryLimit = 1 << 30

    /// The settings that remember which plugins are disabled.
    public let settings: PluginSettings
    /// The values of the plugins' own settings (their manifests' `"settings"`), in
    /// `plugin-settings/` beside ``settings``' file.
    public let settingValues: PluginSettingValues
    let discovery: PluginDiscovery
    let loader: PluginLoader
    let logger: Logger
    /// The clock the host's deadlines, back-off and pollers run on.
    public var clock: PluginClock { loader.clock }
    /// The bus the plugins share.
    public var bus: EventBus { loader.bus }
    let state: LockedState<State>
    let operations = PluginOperations()

    /// A host starting plugins onto `bus` and `services`.
    /// - Parameters:
    ///   - searchPaths: where to look, in order of precedence (see `PluginSearchPath.standard`).
    ///   - settings: the enabled/disabled list; read by `loadAll`.
    ///   - security: the ownership and permission rules for plugin folders and libraries.
    ///   - routes: the app's routes: a plugin's navigation to a route that is neither public
    ///     nor granted by its manifest's permissions is then denied at once
    ///     (`TRELLIS_ERROR_DENIED`); nil leaves that to `navigate`.
    ///   - deadlines: how long a plugin may take to start, stop and handle an event before its
    ///     process is killed and counted as crashed.
    ///   - limits: how much of the shell one plugin may take (``PluginLimits``).
    ///   - clock: the time deadlines, back-off and pollers run on (a test clock in tests).
    ///   - memoryLimit: the most memory a plugin process may map, in bytes (every mapping, shared
    ///     ones too: `RLIMIT_AS`); past it, allocations fail and the plugin typically aborts,
    ///     which is reported as a crash. nil: no limit.
    ///     Not applied in a sanitizer build, whose shadow memory counts against it.
    ///   - landlockABI: the newest Landlock ABI the plugin processes use; nil: the kernel's.
    ///     A lower one confines as an older kernel does (2: Debian 12's Linux 6.1, without
    ///     network rules or scoping), so that a newer machine can test what an older one enforces.
    ///   - environment: where each plugin's data folder (`$XDG_DATA_HOME/trellis/plugin-data/ID`)
    ///     and temporary folder (`$XDG_CACHE_HOME/trellis/plugin-tmp/ID`) are, and Trellis's own
    ///     data and settings that no grant may reach: the process's own by default; a test passes
    ///     folders of its own, so that its plugins keep nothing in the user's.
    ///   - navigate: called when a plugin may navigate: hop to the main actor to drive the
    ///     navigator, as a link from outside unless the request ``PluginNavigationRequest/isGranted``.
    ///   - handleRequest: called when a plugin sends a front-controller request (command,
    ///     parameters).
    public init(bus: EventBus, services: ServiceRegistry, searchPaths: [PluginSearchPath], settings: PluginSettings,
                security: PluginFileSecurity = PluginFileSecurity(), routes: RouteTable<RouteTarget>? = nil,
                deadlines: PluginDeadlines = PluginDeadlines(), limits: PluginLimits = PluginLimits(),
                clock: PluginClock = .continuous, memoryLimit: Int? = PluginHost.defaultMemoryLimit,
                landlockABI: Int? = nil, environment: [String: String] = ProcessEnvironment.current,
                navigate: @escaping @Sendable (PluginNavigationRequest) -> Void,
                handleRequest: @escaping @Sendable (String, JSONValue) -> Void,
                logger: Logger = Logger(trellis: "trellis.plugins")) {
        self.settings = settings
        self.discovery = PluginDiscovery(searchPaths: searchPaths, security: security, routes: routes)
        self.settingValues = PluginSettingValues(folder: settings.url.deletingLastPathComponent().appendingPathComponent("plugin-settings"),
                                                 logger: logger)
        let state = LockedState(State())
        self.state = state
        self.loader = PluginLoader(bus: bus, services: services, logger: logger, routes: routes, deadlines: deadlines,
                                   limits: limits, clock: clock, memoryLimit: memoryLimit, landlockABI: landlockABI,
                                   environment: environment, navigate: navigate,
                                   handleRequest: handleRequest, settingValues: settingValues,
                                   onStart: { id, connection in state.withLock { $0.connections[id] = connection } })
        self.logger = logger
    }

    deinit {
        state.withLock { $0.settingsPoller }?.stop()
        // The plugins' processes end with their host (the shell's exit closes their sockets
        // too; a host released earlier, in a test say, ends them here).
        for connection in state.withLock({ Array($0.connections.values) }) {
            connection.kill(because: "its host is gone", quietly: true)
        }
    }

    /// The reports of the last ``loadAll(serviceOptions:)`` or ``discover(serviceOptions:)``,
    /// updated as plugins load, fail, are enabled or disabled.
    public var reports: [PluginReport] {
        state.withLock { $0.reports }
    }

    /// The report of the plugin `id` that counts (the loaded or disabled one when several
    /// folders share the id).
    public func report(for id: String) -> PluginReport? {
        let reports = self.reports
        return Self.index(of: id, in: reports).map { reports[$0] }
    }

    static func index(of id: String, in reports: [PluginReport]) -> Int? {
        reports.firstIndex { $0.id == id && ($0.state == .loaded || $0.state == .disabled) }
            ?? reports.firstIndex { $0.id == id }
    }

    /// Replaces the report of plugin `id` (the one that counts) with what `change` makes of it.
    func updateReport(of id: String, _ change: (inout PluginReport) -> Void) {
        state.withLock { state in
            guard let index = Self.index(of: id, in: state.reports) else { return }
            change(&state.reports[index])
        }
    }
}
