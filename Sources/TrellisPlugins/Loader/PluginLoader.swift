import Foundation
import Logging
import TrellisCore
import TrellisPluginABI

/// Loads one plugin whose manifest and library were found: starts its process, checks what its
/// entry reports, registers its services with the app's registry and starts those listed in
/// `autostart`. Any failure leaves the plugin inactive (its watches removed, its process ended)
/// and says why.
struct PluginLoader: Sendable {
    let bus: EventBus
    let services: ServiceRegistry
    let logger: Logger
    /// The app's routes, for the plugins' navigation permissions; nil when not known.
    let routes: RouteTable<RouteTarget>?
    /// How long a plugin may take before it is killed.
    let deadlines: PluginDeadlines
    /// How much of the shell one plugin may take.
    let limits: PluginLimits
    let clock: PluginClock
    /// The most memory a plugin process may allocate, in bytes; nil for no limit.
    let memoryLimit: Int?
    /// The newest Landlock ABI a plugin process uses; nil for the kernel's.
    let landlockABI: Int?
    /// Where the plugins' data and temporary folders, and Trellis's own folders no grant may
    /// reach, are found from (`XDG_DATA_HOME`, `XDG_CACHE_HOME`, `XDG_CONFIG_HOME`, `HOME`).
    let environment: [String: String]
    let navigate: @Sendable (PluginNavigationRequest) -> Void
    let handleRequest: @Sendable (String, JSONValue) -> Void
    /// Where the plugins' setting values are kept: a new context starts with them.
    let settingValues: PluginSettingValues
    /// Told of each plugin process as soon as it runs, by plugin id.
    let onStart: @Sendable (String, PluginConnection) -> Void

    /// A loaded plugin: its context, the connection to its process now, and what confines it.
    struct Loaded: Sendable {
        let context: PluginContext
        let handle: PluginConnectionHandle
        var confinement: PluginConfinementReport? = nil
        var connection: PluginConnection { handle.connection }
    }

    /// Loads the plugin described by `manifest` from `library` in a process of its own.
    /// `options` replaces the manifest's autostart options, by service name. `onCrash` is called
    /// if the process ends unasked once loaded.
    func load(_ manifest: PluginManifest, library url: URL, options: [String: JSONValue],
              onCrash: @escaping @Sendable (PluginFailure) -> Void) async -> Result<Loaded, PluginFailure> {
        let context = makeContext(manifest)
        let connection: PluginConnection
        let confinement: PluginConfinementReport?
        switch await launch(manifest, library: url, context: context, options: options, onCrash: onCrash) {
        case .success(let launched): (connection, confinement) = launched
        case .failure(let failure): return .failure(failure)
        }
        let handle = PluginConnectionHandle(connection)
        var registered: [String] = []
        for name in await connection.registeredServices {
            do {
                try services.register(name, owner: manifest.id) { PluginService(name: name, handle: handle) }
                registered.append(name)
            } catch {
                context.setPhase(.inactive)
                await connection.terminate()
                for name in registered { services.unregister(name, owner: manifest.id) }
                return .failure(.serviceAlreadyRegistered(service: name, reason: "\(error)"))
            }
        }
        let activated = await activate(manifest, context: context, connection: connection, options: options)
        if case .failure = activated {
            // Not loaded: its names are free again for the next load (a restart after a start
            // that crashed or missed its deadline loads it afresh).
            for name in registered { services.unregister(name, owner: manifest.id) }
        }
        return activated.map { Loaded(context: context, handle: handle, confinement: confinement) }
    }

    /// Starts a plugin again in a new process, behind the same services (a crash, a reload, an
    /// enable after a disable): the new process must register the services the first one did.
    func relaunch(_ manifest: PluginManifest, library url: URL, loaded: Loaded, options: [String: JSONValue],
                  onCrash: @escaping @Sendable (PluginFailure) -> Void) async -> PluginFailure? {
        let before = await loaded.connection.registeredServices
        let values = settingValues.values(of: manifest)
        loaded.context.settings.withLock { $0 = .object(values) }
        loaded.context.beginEntry()
        let connection: PluginConnection
        switch await launch(manifest, library: url, context: loaded.context, options: options, onCrash: onCrash, freeNamesExcept: before) {
        case .success(let launched): connection = launched.connection
        case .failure(let failure): return failure
        }
        let registered = await connection.registeredServices
        guard registered.sorted() == before.sorted() else {
            loaded.context.setPhase(.inactive)
            await connection.terminate()
            return .pluginProcess(reason: "after a restart it registered \(registered) instead of \(before)")
        }
        loaded.handle.replace(with: connection)
        if case .failure(let failure) = await activate(manifest, context: loaded.context, connection: connection, options: options) {
            return failure
        }
        return nil
    }

    private func makeContext(_ manifest: PluginManifest) -> PluginContext {
        var pluginLogger = logger
        pluginLogger[metadataKey: "plugin"] = "\(manifest.id)"
        let routes = self.routes
        let context = PluginContext(pluginID: manifest.id, declaredServices: manifest.services, permissions: manifest.permissions,
                                    bus: bus, logger: pluginLogger, isPublicRoute: { path in (try? routes?.match(path))?.isPublic },
                                    navigate: navigate, handleRequest: handleRequest)
        let values = settingValues.values(of: manifest)
        context.settings.withLock { $0 = .object(values) }
        return context
    }

    /// Starts the plugin's process and checks what its entry did; `freeNamesExcept`: the
    /// services this plugin itself registered before (a restart).
    private func launch(_ manifest: PluginManifest, library url: URL, context: PluginContext, options: [String: JSONValue],
                        onCrash: @escaping @Sendable (PluginFailure) -> Void, freeNamesExcept own: [String] = []) async
        -> Result<(connection: PluginConnection, confinement: PluginConfinementReport?), PluginFailure> {
        var grants = PluginGate.grantsMessage(manifest.permissions,
                                              routes: routes?.entries.map { ($0.pattern.text, $0.isPublic) },
                                              memoryLimit: memoryLimit)
        let settings = context.settings.withLock { $0 }
        grants["settings"] = settings
        grants["limits"] = limits.grantsValue
        // What the process may reach (PluginConfinement), enforced there before the library opens.
        let confinement = PluginConfinement(manifest: manifest, library: url, settings: settings.objectValue ?? [:],
                                            options: manifest.autostart.merging(options) { _, given in given },
                                            environment: environment)
        grants["confinement"] = confinement.json
        if let landlockABI { grants["confinement"]?["landlockABI"] = .number(Double(landlockABI)) }
        for problem in confinement.problems { context.logger.warning("plugin \(manifest.id): \(problem)") }
        let connection: PluginConnection
        let entry: PluginEntry
        let id = manifest.id, onStart = self.onStart
        switch await PluginConnection.launch(library: url, context: context, grants: grants, deadlines: deadlines,
                                             limits: limits, clock: clock, onStart: { onStart(id, $0) }, onCrash: onCrash) {
        case .success(let launched): (connection, entry) = launched
        case .failure(let failure):
            context.setPhase(.inactive)
            return .failure(failure)
        }
        let names = await connection.registeredServices.filter { !own.contains($0) }
        if let failure = entry.failure ?? context.refusal ?? check(entry.info, manifest: manifest, library: url) ?? checkNamesFree(names) {
            context.setPhase(.inactive)
            await connection.terminate()
            return .failure(failure)
        }
        let report = entry.report["confinement"].flatMap(PluginConfinementReport.init(json:))
        for warning in report?.warnings ?? [] { context.logger.warning("plugin \(manifest.id): \(warning)") }
        return .success((connection, report))
    }

    /// Makes the plugin active and starts its autostart services; on a failure the plugin
    /// is inactive again and its process ended. A process that ended meanwhile (it crashed in a
    /// service's start, or missed its deadline) is a crash (``PluginFailure/crashed(reason:lastOutput:)``),
    /// which the host's restart policy retries; a start that answered an error is not.
    private func activate(_ manifest: PluginManifest, context: PluginContext, connection: PluginConnection,
                          options: [String: JSONValue]) async -> Result<Void, PluginFailure> {
        context.setPhase(.active)
        let failure = await autostart(manifest, options: options)
        if failure == nil, await connection.markLaunched() { return .success(()) }
        context.setPhase(.inactive)
        let crashed = await connection.hasEnded
        await connection.terminate()
        if crashed || failure == nil { return .failure(await connection.endFailure(fallback: "it ended")) }
        return .failure(failure ?? .pluginProcess(reason: "it ended"))
    }

    /// Starts the manifest's autostart services in the order the manifest lists its services;
    /// on a failure, stops those already started and returns why.
    func autostart(_ manifest: PluginManifest, options: [String: JSONValue]) async -> PluginFailure? {
        var started: [String] = []
        for service in manifest.services {
            guard let defaults = manifest.autostart[service] else { continue }
            do {
                try await services.start(service, options: options[service] ?? defaults)
                started.append(service)
            } catch {
                for name in started.reversed() { try? await services.stop(name) }
                let reason: String
                if case ServiceError.startFailed(_, _, let underlying) = error { reason = "\(underlying)" } else { reason = "\(error)" }
                return .serviceStartFailed(service: service, reason: reason)
            }
        }
        return nil
    }

    /// Why the entry's info is unacceptable, or `nil`.
    private func check(_ info: PluginEntry.Info?, manifest: PluginManifest, library: URL) -> PluginFailure? {
        guard let info else {
            return .invalidInfo(path: library.path, reason: "\(TRELLIS_PLUGIN_ENTRY_SYMBOL) returned no plugin info")
        }
        guard info.size >= MemoryLayout<trellis_plugin_info>.size else {
            return .invalidInfo(path: library.path, reason: "plugin info of \(info.size) bytes, expected at least \(MemoryLayout<trellis_plugin_info>.size)")
        }
        if let refusal = info.refusal {
            return .refusedByPlugin(reason: refusal)
        }
        guard info.abiVersion == manifest.abiVersion else {
            return .abiMismatch(path: library.path, manifest: manifest.abiVersion, library: info.abiVersion)
        }
        return nil
    }

    /// Why one of the services `names` cannot be registered (its name is taken), or `nil`.
    private func checkNamesFree(_ names: [String]) -> PluginFailure? {
        let owners = Dictionary(services.services.map { ($0.name, $0.owner) }, uniquingKeysWith: { first, _ in first })
        for name in names {
            if let owner = owners[name] {
                return .serviceAlreadyRegistered(service: name, reason: "registered by \(owner == "host" ? "the host" : "plugin \"\(owner)\"")")
            }
        }
        return nil
    }
}
