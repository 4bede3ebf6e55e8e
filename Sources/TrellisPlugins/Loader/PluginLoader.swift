import TrellisCore
import Foundation
import Logging
import TrellisPluginABI

/// Loads one plugin whose manifest and library were found: opens the library, calls its entry
/// with a host table, checks the info it returns, registers its services with the host's
/// registry and starts those listed in `autostart`. Any failure leaves the plugin inactive
/// (its watches removed, its services refusing to start) and says why.
struct PluginLoader: Sendable {
    let bus: EventBus
    let services: ServiceRegistry
    let logger: Logger
    /// The app's routes, for the plugins' navigation permissions; nil when not known.
    let routes: RouteTable<RouteTarget>?
    /// How long a plugin in a process may take before it is killed.
    let deadlines: PluginDeadlines
    /// The most memory a plugin process may allocate, in bytes; nil for no limit.
    let memoryLimit: Int?
    let navigate: @Sendable (PluginNavigationRequest) -> Void
    let handleRequest: @Sendable (String, JSONValue) -> Void
    /// Where the plugins' setting values are kept: a new context starts with them.
    let settingValues: PluginSettingValues

    /// A loaded plugin: its context, and its process when it runs in one, with what confines it.
    struct Loaded: Sendable {
        let context: PluginContext
        let process: PluginProcessHandle?
        var confinement: PluginConfinementReport? = nil
    }

    /// Loads the plugin described by `manifest` from `library`, in the shell's process or in
    /// one of its own. `options` replaces the manifest's autostart options, by service name.
    /// `onCrash` is called (on a thread of the plugin process's) if a plugin in a process ends
    /// once loaded.
    func load(_ manifest: PluginManifest, library url: URL, options: [String: JSONValue], isolation: PluginIsolation,
              onCrash: @escaping @Sendable (PluginFailure) -> Void) -> Result<Loaded, PluginFailure> {
        switch isolation {
        case .inProcess: return loadInProcess(manifest, library: url, options: options).map { Loaded(context: $0, process: nil) }
        case .process: return loadInItsProcess(manifest, library: url, options: options, onCrash: onCrash)
        }
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

    private func loadInItsProcess(_ manifest: PluginManifest, library url: URL, options: [String: JSONValue],
                                  onCrash: @escaping @Sendable (PluginFailure) -> Void) -> Result<Loaded, PluginFailure> {
        let context = makeContext(manifest)
        let process: PluginProcess
        let confinement: PluginConfinementReport?
        switch launch(manifest, library: url, context: context, options: options, onCrash: onCrash) {
        case .success(let launched): (process, confinement) = launched
        case .failure(let failure): return .failure(failure)
        }
        let handle = PluginProcessHandle(process)
        for name in process.registeredServices {
            do {
                try services.register(name, owner: manifest.id) { ProcessServiceBridge(name: name, handle: handle) }
            } catch {
                context.setPhase(.inactive)
                process.terminate()
                return .failure(.serviceAlreadyRegistered(service: name, reason: "\(error)"))
            }
        }
        return activate(manifest, context: context, process: process, options: options)
            .map { Loaded(context: context, process: handle, confinement: confinement) }
    }

    /// Starts a crashed plugin again in a new process, behind the same services: the new
    /// process must register the services the first one did.
    func relaunch(_ manifest: PluginManifest, library url: URL, loaded: Loaded, options: [String: JSONValue],
                  onCrash: @escaping @Sendable (PluginFailure) -> Void) -> PluginFailure? {
        guard let handle = loaded.process else { return .pluginProcess(reason: "it does not run in a process") }
        let before = handle.process.registeredServices
        let values = settingValues.values(of: manifest)
        loaded.context.settings.withLock { $0 = .object(values) }
        loaded.context.beginEntry()
        let process: PluginProcess
        switch launch(manifest, library: url, context: loaded.context, options: options, onCrash: onCrash, freeNamesExcept: before) {
        case .success(let launched): process = launched.0
        case .failure(let failure): return failure
        }
        guard process.registeredServices.sorted() == before.sorted() else {
            loaded.context.setPhase(.inactive)
            process.terminate()
            return .pluginProcess(reason: "after a restart it registered \(process.registeredServices) instead of \(before)")
        }
        handle.replace(with: process)
        if case .failure(let failure) = activate(manifest, context: loaded.context, process: process, options: options) {
            return failure
        }
        return nil
    }

    /// Starts the plugin's process and checks what its entry did; `freeNamesExcept`: the
    /// services this plugin itself registered before (a restart).
    private func launch(_ manifest: PluginManifest, library url: URL, context: PluginContext, options: [String: JSONValue],
                        onCrash: @escaping @Sendable (PluginFailure) -> Void,
                        freeNamesExcept own: [String] = []) -> Result<(PluginProcess, PluginConfinementReport?), PluginFailure> {
        let process: PluginProcess
        let entry: JSONValue
        var grants = PluginGate.grantsMessage(manifest.permissions,
                                              routes: routes?.entries.map { ($0.pattern.text, $0.isPublic) },
                                              memoryLimit: memoryLimit)
        let settings = context.settings.withLock { $0 }
        grants["settings"] = settings
        // What the process may reach (PluginConfinement), enforced there before the library opens.
        let confinement = PluginConfinement(manifest: manifest, library: url, settings: settings.objectValue ?? [:],
                                            options: manifest.autostart.merging(options) { _, given in given })
        grants["confinement"] = confinement.json
        for problem in confinement.problems { context.logger.warning("plugin \(manifest.id): \(problem)") }
        switch PluginProcess.launch(library: url, context: context, grants: grants, deadlines: deadlines, onCrash: onCrash) {
        case .success(let launched): (process, entry) = launched
        case .failure(let failure):
            context.setPhase(.inactive)
            return .failure(failure)
        }
        let refusal = context.takeRegistrations().refusal
        let info = entry["info"].map { info in
            PluginInfo(abiVersion: info["abiVersion"]?.intValue ?? -1, size: info["size"]?.intValue ?? 0,
                       refusal: info["refusal"]?.stringValue)
        }
        let names = process.registeredServices.filter { !own.contains($0) }
        if let failure = refusal ?? check(info, manifest: manifest, library: url) ?? checkNamesFree(names) {
            context.setPhase(.inactive)
            process.terminate()
            return .failure(failure)
        }
        let report = entry["confinement"].flatMap(PluginConfinementReport.init(json:))
        for warning in report?.warnings ?? [] { context.logger.warning("plugin \(manifest.id): \(warning)") }
        return .success((process, report))
    }

    /// Makes the plugin active and starts its autostart services; on a failure the plugin
    /// is inactive again and its process ended.
    private func activate(_ manifest: PluginManifest, context: PluginContext, process: PluginProcess,
                          options: [String: JSONValue]) -> Result<Void, PluginFailure> {
        context.setPhase(.active)
        if let failure = autostart(manifest, options: options) {
            context.setPhase(.inactive)
            process.terminate()
            return .failure(failure)
        }
        return .success(())
    }

    private func loadInProcess(_ manifest: PluginManifest, library url: URL, options: [String: JSONValue]) -> Result<PluginContext, PluginFailure> {
        let library: PluginLibrary
        switch PluginLibrary.open(url) {
        case .success(let opened): library = opened
        case .failure(let failure): return .failure(failure)
        }
        let context = makeContext(manifest)
        let info = library.entry(HostAPITable.make(for: context)).map { info in
            PluginInfo(abiVersion: Int(info.pointee.abi_version), size: Int(info.pointee.struct_size),
                       refusal: info.pointee.refusal.map { String(cString: $0) })
        }
        let (registrations, refusal) = context.takeRegistrations()
        if let failure = refusal ?? check(info, manifest: manifest, library: url) ?? checkNamesFree(registrations.map(\.name)) {
            context.setPhase(.inactive)
            registrations.forEach { $0.release() }
            return .failure(failure)
        }
        for (index, callbacks) in registrations.enumerated() {
            do {
                try services.register(callbacks.name, owner: manifest.id) {
                    PluginServiceBridge(callbacks: callbacks, context: context)
                }
            } catch {
                context.setPhase(.inactive)
                registrations[index...].forEach { $0.release() }
                return .failure(.serviceAlreadyRegistered(service: callbacks.name, reason: "\(error)"))
            }
        }
        context.setPhase(.active)
        if let failure = autostart(manifest, options: options) {
            context.setPhase(.inactive)
            return .failure(failure)
        }
        return .success(context)
    }

    /// Starts the manifest's autostart services in the order the manifest lists its services;
    /// on a failure, stops those already started and returns why.
    func autostart(_ manifest: PluginManifest, options: [String: JSONValue]) -> PluginFailure? {
        var started: [String] = []
        for service in manifest.services {
            guard let defaults = manifest.autostart[service] else { continue }
            do {
                try services.start(service, options: options[service] ?? defaults)
                started.append(service)
            } catch {
                for name in started.reversed() { try? services.stop(name) }
                let reason: String
                if case ServiceError.startFailed(_, _, let underlying) = error { reason = "\(underlying)" } else { reason = "\(error)" }
                return .serviceStartFailed(service: service, reason: reason)
            }
        }
        return nil
    }

    /// What a plugin's entry returned, read from its `trellis_plugin_info` (in this process or
    /// in the plugin's own).
    struct PluginInfo {
        let abiVersion: Int
        let size: Int
        let refusal: String?
    }

    /// Why the entry's info is unacceptable, or `nil`.
    private func check(_ info: PluginInfo?, manifest: PluginManifest, library: URL) -> PluginFailure? {
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
