import TrellisCore
import Foundation
import Logging

/// The plugin engine: finds plugins in the search paths, loads the enabled ones in dependency
/// order onto the app's bus and service registry, and reports on every plugin it found
/// (libpeas's `PeasEngine`). A plugin that fails is reported with the reason and skipped; the
/// shell and the other plugins go on.
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
/// for report in host.loadAll() where report.state.failure != nil {
///     logger.warning("\(report)")
/// }
/// ```
///
/// Disabling a loaded plugin stops its services, removes its watches and ends its process;
/// enabling it again starts a new process (a plugin in the shell's process cannot be
/// unloaded: it is made inactive) and its autostart services.
///
/// ## Threads
/// `loadAll` and `setEnabled` block their caller while plugins load and start — for a plugin in
/// a process of its own, until it answers, up to 5 s when it hangs: call them from a thread of
/// your own (or the main thread at start-up), not from a Swift concurrency task, whose few
/// threads the wait would hold. They may be called from any thread and run one at a time, holding no
/// lock while plugin code runs: a call from another thread waits for the one in progress. A
/// call made while one runs on the same thread (by a watcher of an event a plugin's start
/// triggered, say) cannot wait for it: it is queued, and runs as soon as the current call's
/// own work is done, before that call returns (whose result shows its effect); the queued call
/// itself returns the report(s) as they are when it is queued. Plugin code must therefore not
/// wait for another thread that calls them.
public final class PluginHost: Sendable {
    struct State: Sendable {
        var reports: [PluginReport] = []
        var contexts: [String: PluginContext] = [:]
        var loaded: [String: PluginLoader.Loaded] = [:]
        var crashes: [String: [ContinuousClock.Instant]] = [:]
        var options: [String: JSONValue] = [:]
        var settingsPoller: FileChangePoller?
        /// The owners of the watches that activate waiting plugins, by plugin.
        var activations: [String: ActivationWatch] = [:]
        /// The plugins a `loadAll(deferringStartup: true)` left for ``finishStartup()``, in load order.
        var deferred: [String] = []
        /// The plugins being activated now.
        var starting: Set<String> = []
    }

    /// The default ``init(bus:services:searchPaths:settings:security:isolation:routes:deadlines:memoryLimit:navigate:handleRequest:logger:)``
    /// memory limit of a plugin process: 1 GiB.
    public static let defaultMemoryLimit = 1 << 30

    /// The settings that remember which plugins are disabled.
    public let settings: PluginSettings
    /// The values of the plugins' own settings (their manifests' `"settings"`), in
    /// `plugin-settings/` beside ``settings``' file.
    public let settingValues: PluginSettingValues
    /// Where every plugin runs, when the host decides for all; nil: as each manifest asks,
    /// within ``PluginIsolation/effective(_:origin:)``.
    public let isolation: PluginIsolation?
    let discovery: PluginDiscovery
    let loader: PluginLoader
    let logger: Logger
    /// The bus the plugins share.
    public var bus: EventBus { loader.bus }
    let state = LockedState(State())
    /// Runs `loadAll` and `setEnabled` one at a time (see "Threads"), on their caller's thread.
    private let operations = DispatchQueue(label: "trellis.plugins.operations")
    /// Set on `operations`: tells a call made during an operation on the same thread.
    private let onOperations = DispatchSpecificKey<Bool>()
    /// Calls queued during an operation on its own thread, run before that operation returns.
    private let queued = LockedState<[@Sendable () -> Void]>([])

    /// A host loading plugins onto `bus` and `services`.
    /// - Parameters:
    ///   - searchPaths: where to look, in order of precedence (see `PluginSearchPath.standard`).
    ///   - settings: the enabled/disabled list; read by `loadAll`.
    ///   - security: the ownership and permission rules for plugin folders and libraries.
    ///   - isolation: nil (the default) runs each plugin as ``PluginIsolation`` says;
    ///     `.inProcess` runs every plugin in this process (a host that cannot start processes,
    ///     or tests of the in-process ABI); `.process` runs every plugin in a process of its own.
    ///   - deadlines: how long a plugin in a process of its own may take to start, stop and
    ///     handle an event before it is killed and counted as crashed.
    ///   - memoryLimit: the most memory a plugin in a process of its own may allocate, in bytes
    ///     (every mapping, shared ones too: `RLIMIT_AS`); past it, allocations fail and
    ///     the plugin typically aborts, which is reported as a crash. nil: no limit. Not applied
    ///     in a sanitizer build, whose shadow memory counts against it.
    ///   - routes: the app's routes: a plugin's navigation to a route that is neither public
    ///     nor granted by its manifest's permissions is then denied at once
    ///     (`TRELLIS_ERROR_DENIED`); nil leaves that to `navigate`.
    ///   - navigate: called when a plugin may navigate, on the plugin's thread: hop to the
    ///     main actor to drive the navigator, as a link from outside unless the request
    ///     ``PluginNavigationRequest/isGranted``.
    ///   - handleRequest: called when a plugin sends a front-controller request (command,
    ///     parameters), on the plugin's thread.
    public init(bus: EventBus, services: ServiceRegistry, searchPaths: [PluginSearchPath], settings: PluginSettings,
                security: PluginFileSecurity = PluginFileSecurity(), isolation: PluginIsolation? = nil,
                routes: RouteTable<RouteTarget>? = nil, deadlines: PluginDeadlines = PluginDeadlines(),
                memoryLimit: Int? = PluginHost.defaultMemoryLimit,
                navigate: @escaping @Sendable (PluginNavigationRequest) -> Void,
                handleRequest: @escaping @Sendable (String, JSONValue) -> Void,
                logger: Logger = Logger(trellis: "trellis.plugins")) {
        self.settings = settings
        self.isolation = isolation
        self.discovery = PluginDiscovery(searchPaths: searchPaths, security: security, routes: routes)
        self.settingValues = PluginSettingValues(folder: settings.url.deletingLastPathComponent().appendingPathComponent("plugin-settings"),
                                                 logger: logger)
        self.loader = PluginLoader(bus: bus, services: services, logger: logger, routes: routes, deadlines: deadlines,
                                   memoryLimit: memoryLimit, navigate: navigate,
                                   handleRequest: handleRequest, settingValues: settingValues)
        self.logger = logger
        operations.setSpecific(key: onOperations, value: true)
    }

    deinit {
        state.withLock { $0.settingsPoller }?.stop()
        // The plugins' processes end with their host (the shell's exit closes their sockets
        // too; a host released earlier, in a test say, ends them here).
        for loaded in state.withLock({ Array($0.loaded.values) }) { loaded.process?.process.terminate() }
    }

    /// Runs `operation` once the one in progress is done, or queues it when called during an
    /// operation on this thread (see "Threads").
    func perform(_ operation: @escaping @Sendable () -> Void) {
        guard DispatchQueue.getSpecific(key: onOperations) == nil else {
            queued.withLock { $0.append(operation) }
            return
        }
        operations.sync {
            operation()
            while let next = queued.withLock({ $0.isEmpty ? nil : $0.removeFirst() }) { next() }
        }
    }

    /// Reads the settings, finds every plugin and loads the enabled ones in dependency order.
    /// A later call only handles plugin folders that were not found before; the others keep
    /// their reports (a library is never loaded twice).
    /// - Parameters:
    ///   - serviceOptions: start options by service name, replacing the manifests'
    ///     `autostart` options (for example a track file for `location`).
    ///   - deferringStartup: leave the plugins that would load now waiting (reported as
    ///     "inactive (waiting for onStartup)") until ``finishStartup()``: the window calls it
    ///     after its first frame, so that no plugin delays it. Their manifests are read now:
    ///     their pages, commands, settings and status items are there at once, and opening one
    ///     of their pages or invoking one of their commands starts the plugin before then.
    /// - Returns: one report per plugin folder found, in search order.
    @discardableResult
    public func loadAll(serviceOptions: [String: JSONValue] = [:], deferringStartup: Bool = false) -> [PluginReport] {
        perform { self.discoverAndLoad(serviceOptions: serviceOptions, deferringStartup: deferringStartup) }
        return reports
    }

    /// Every plugin found, as far as its manifest, its files, the settings and the other
    /// plugins tell, **without running any plugin code** (`trellis plugins` without
    /// `--check`): `found` (enabled: it would load), `disabled`, or `failed` with the reason (a
    /// manifest, a file's permissions, a missing or disabled dependency). Loads nothing and
    /// leaves ``reports`` as they are.
    public func survey() -> [PluginReport] {
        do { try settings.load() } catch { logger.error("\(error); every plugin stays enabled") }
        return plan(after: []).reports
    }

    private func discoverAndLoad(serviceOptions: [String: JSONValue], deferringStartup: Bool) {
        do { try settings.load() } catch { logger.error("\(error); every plugin stays enabled") }
        let previous = state.withLock { state in
            state.options.merge(serviceOptions) { _, new in new }
            return state.reports
        }
        var (reports, sequence) = plan(after: previous)
        for report in reports {
            // A plugin's own translations of its manifest's texts, if it ships them.
            let locale = report.directory.appendingPathComponent("locale")
            if let id = report.manifest?.id, FileManager.default.fileExists(atPath: locale.path) {
                Localization.bindPlugin(id, localeDirectory: locale)
            }
        }
        var deferred: [String] = []
        for id in sequence {
            guard let index = reports.firstIndex(where: { $0.id == id && $0.state == .found }) else { continue }
            if deferringStartup, let activation = reports[index].manifest?.activation {
                // A lazy plugin loads now when a plugin loading now needs it: at the start too.
                reports[index].state = .waiting(activation: activation.contains(.onStartup) ? activation : [.onStartup] + activation)
                deferred.append(id)
            } else {
                reports[index] = load(reports[index], loadedSoFar: reports)
            }
        }
        state.withLock { state in
            state.reports = reports
            state.deferred += deferred
        }
        for report in reports {
            if case .waiting(let activation) = report.state { arm(report.id, activation) }
        }
    }

    /// The plugins found now, reports of `previous` kept for folders seen before, with the
    /// failures of the load order, and the order in which to load the others.
    private func plan(after previous: [PluginReport]) -> (reports: [PluginReport], sequence: [String]) {
        var reports = discovery.discover().map { report in
            if let earlier = previous.first(where: { $0.directory == report.directory }) { return earlier }
            var report = report
            if report.state == .found && !settings.isEnabled(report.id) { report.state = .disabled }
            if report.state == .found, let held = approvalHold(report) { report.state = held }
            return report
        }
        let candidates = reports.filter { $0.state == .found || $0.state == .loaded }.map { report in
            (id: report.id, dependencies: report.state == .found ? report.manifest?.dependencies ?? [] : [])
        }
        let order = PluginLoadOrder(plugins: candidates, unavailable: Self.unavailable(reports))
        for index in reports.indices where reports[index].state == .found {
            if let failure = order.failures[reports[index].id] { reports[index].state = .failed(failure) }
        }
        // Plugins that wait for an activation event, unless a plugin loading now needs them.
        let needed = Set(order.sequence.flatMap { id in reports.first { $0.id == id }?.manifest?.dependencies ?? [] })
        for index in reports.indices where reports[index].state == .found && !needed.contains(reports[index].id) {
            if let activation = reports[index].manifest?.activation, !activation.contains(.onStartup) {
                reports[index].state = .waiting(activation: activation)
            }
        }
        return (reports, order.sequence)
    }

    /// Why each plugin that will not load is unavailable, for its dependents' failures.
    private static func unavailable(_ reports: [PluginReport]) -> [String: String] {
        var reasons: [String: String] = [:]
        for report in reports where reasons[report.id] == nil {
            switch report.state {
            case .disabled: reasons[report.id] = "it is disabled"
            case .failed(let failure): reasons[report.id] = "it failed: \(failure)"
            case .awaitingApproval: reasons[report.id] = "it waits for the user's approval"
            case .found, .loaded, .waiting: break
            }
        }
        return reasons
    }

    /// The reports of the last `loadAll`, updated by `setEnabled`.
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

    /// Enables or disables plugin `id`, remembers it in the settings, and applies it now:
    /// disabling a loaded plugin stops its services and removes its watches; enabling a
    /// disabled plugin loads it (or, if it was loaded earlier in this run, restarts its
    /// autostart services). For a plugin that failed, the choice takes effect at the next start.
    /// Calls from several threads at once end with the plugin as the settings last say.
    /// - Returns: the plugin's report afterwards (as it is now, if the call was queued: see
    ///   "Threads"), or `nil` if no plugin has this id.
    @discardableResult
    public func setEnabled(_ id: String, _ enabled: Bool) throws(PluginSettingsError) -> PluginReport? {
        try settings.setEnabled(id, enabled)
        perform { self.applySetting(of: id) }
        return report(for: id)
    }

    /// Brings plugin `id` to the state its setting asks for.
    func applySetting(of id: String) {
        let enabled = settings.isEnabled(id)
        var reports = self.reports
        guard let index = Self.index(of: id, in: reports) else { return }
        let (context, options) = state.withLock { ($0.contexts[id], $0.options) }
        var report = reports[index]
        switch (enabled, report.state) {
        case (false, .waiting):
            disarm(id)
            report.state = .disabled
        case (false, .loaded):
            // A disabled plugin's process ends (not a crash, even if a stop misses its
            // deadline); enabling it starts a new one.
            let process = state.withLock { $0.loaded[id] }?.process?.process
            process?.willEnd()
            if let context, let manifest = report.manifest { deactivate(context, manifest) }
            process?.terminateAndWait()
            report.state = .disabled
        case (true, .disabled):
            if let loaded = state.withLock({ $0.loaded[id] }), loaded.process != nil,
               let manifest = report.manifest, let library = report.library {
                if let failure = loader.relaunch(manifest, library: library, loaded: loaded, options: options,
                                                 onCrash: crashHandler(id)) {
                    report.state = .failed(failure)
                } else {
                    report.state = .loaded
                }
            } else if let context, let manifest = report.manifest {
                context.setPhase(.active)
                if let failure = loader.autostart(manifest, options: options) {
                    context.setPhase(.inactive)
                    report.state = .failed(failure)
                } else {
                    report.state = .loaded
                }
            } else {
                report.state = .found
                report = load(report, loadedSoFar: reports)
            }
        case (true, .failed(let failure)) where failure.isCrash:
            if let loaded = state.withLock({ $0.loaded[id] }), let manifest = report.manifest, let library = report.library {
                state.withLock { $0.crashes[id] = [] }
                if let failure = loader.relaunch(manifest, library: library, loaded: loaded, options: options,
                                                 onCrash: crashHandler(id)) {
                    report.state = .failed(failure)
                } else {
                    report.state = .loaded
                }
            }
        default:
            break
        }
        reports[index] = report
        state.withLock { $0.reports = reports }
        logger.info("plugin \(id) \(enabled ? "enabled" : "disabled"): \(report.state)")
        loader.bus.trigger(enabled ? "plugin:enabled" : "plugin:disabled",
                           ["plugin": .string(id), "state": .string(report.state.description)])
    }

    /// Loads one found plugin whose dependencies are all loaded.
    func load(_ report: PluginReport, loadedSoFar reports: [PluginReport]) -> PluginReport {
        var report = report
        guard let manifest = report.manifest, let library = report.library else { return report }
        for dependency in manifest.dependencies {
            let states = reports.filter { $0.id == dependency }.map(\.state)
            guard !states.contains(.loaded) else { continue }
            report.state = .failed(states.isEmpty ? .dependencyMissing(dependency: dependency)
                : .dependencyUnavailable(dependency: dependency, reason: "it is \(states[0])"))
            return report
        }
        if let refusal = confinementRefusal(report) {
            report.state = .failed(refusal)
            logger.error("plugin \(manifest.id): \(refusal)")
            return report
        }
        let options = state.withLock { $0.options }
        let clock = ContinuousClock()
        let start = clock.now
        let mode = isolation ?? PluginIsolation.effective(manifest.isolation, origin: report.origin)
        let outcome = loader.load(manifest, library: library, options: options, isolation: mode,
                                  onCrash: crashHandler(manifest.id))
        report.loadDuration = clock.now - start
        switch outcome {
        case .success(let loaded):
            state.withLock { state in
                state.contexts[manifest.id] = loaded.context
                state.loaded[manifest.id] = loaded
            }
            report.state = .loaded
            report.confinement = loaded.confinement
            logger.info("loaded plugin \(manifest.id) \(manifest.version) from \(library.path) (\(mode == .process ? "in a process of its own" : "in the shell's process"))")
            deliverSettingsChanged(during: loaded, manifest)
        case .failure(let failure):
            report.state = .failed(failure)
            logger.error("plugin \(manifest.id) (\(report.directory.path)): \(failure)")
        }
        return report
    }

    /// A plugin that crashes this many times within ``crashWindow`` is not restarted again.
    public static let crashLimit = 3
    /// See ``crashLimit``.
    public static let crashWindow = Duration.seconds(5 * 60)

    func crashHandler(_ id: String) -> @Sendable (PluginFailure) -> Void {
        { [weak self] failure in self?.crashed(id, failure) }
    }

    /// A loaded plugin's process ended unasked: its services are marked stopped, its watches
    /// are gone (its context is inactive), the report says why, and `plugin:crashed` tells the
    /// bus (`{"plugin": id, "reason": text}`). It is started again at once after a first crash,
    /// a second later after a second one, unless this was its ``crashLimit``th crash within
    /// ``crashWindow``: then it is disabled, with that reason, until the user enables it again.
    private func crashed(_ id: String, _ failure: PluginFailure) {
        logger.error("plugin \(id): \(failure)")
        let restartAfter = LockedState<Duration?>(nil)
        perform {
            var reports = self.reports
            guard let index = Self.index(of: id, in: reports), let manifest = reports[index].manifest else { return }
            for service in manifest.services.reversed() where self.loader.services.isRunning(service) {
                try? self.loader.services.stop(service)
            }
            let now = ContinuousClock.now
            let recent = self.state.withLock { state in
                let times = (state.crashes[id] ?? []).filter { now - $0 < Self.crashWindow } + [now]
                state.crashes[id] = times
                return times.count
            }
            if recent >= Self.crashLimit {
                reports[index].state = .failed(.crashedTooOften(crashes: recent, last: failure))
                do { try self.settings.setEnabled(id, false) } catch { self.logger.error("\(error)") }
            } else {
                reports[index].state = .failed(failure)
                // At once after a first crash, a second later after a second one.
                restartAfter.withLock { $0 = .seconds(recent - 1) }
            }
            self.state.withLock { $0.reports = reports }
        }
        loader.bus.trigger("plugin:crashed", ["plugin": .string(id), "reason": .string(failure.description)])
        guard let delay = restartAfter.withLock({ $0 }) else { return }
        DispatchQueue.global().asyncAfter(deadline: .now() + .milliseconds(Int(delay.components.seconds * 1000))) { [weak self] in
            self?.restart(id)
        }
    }

    /// Starts a crashed plugin again in a new process, if it is still enabled and crashed.
    private func restart(_ id: String) {
        let restarted = LockedState(false)
        perform {
            var reports = self.reports
            guard let index = Self.index(of: id, in: reports), let manifest = reports[index].manifest,
                  let library = reports[index].library, self.settings.isEnabled(id),
                  case .failed(let failure) = reports[index].state, failure.isCrash,
                  let loaded = self.state.withLock({ $0.loaded[id] }) else { return }
            let options = self.state.withLock { $0.options }
            if let failure = self.loader.relaunch(manifest, library: library, loaded: loaded, options: options,
                                                  onCrash: self.crashHandler(id)) {
                reports[index].state = .failed(failure)
                self.logger.error("plugin \(id) could not be restarted: \(failure)")
            } else {
                reports[index].state = .loaded
                restarted.withLock { $0 = true }
                self.logger.notice("plugin \(id) restarted")
            }
            self.state.withLock { $0.reports = reports }
        }
        if restarted.withLock({ $0 }) { loader.bus.trigger("plugin:restarted", ["plugin": .string(id)]) }
    }

    /// Stops the plugin's running services and makes it inactive (its watches end).
    func deactivate(_ context: PluginContext, _ manifest: PluginManifest) {
        for service in manifest.services.reversed() where loader.services.isRunning(service) {
            do { try loader.services.stop(service) } catch { logger.error("plugin \(manifest.id): \(error)") }
        }
        context.setPhase(.inactive)
    }
}
