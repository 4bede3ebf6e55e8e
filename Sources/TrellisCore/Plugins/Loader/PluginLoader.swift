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
    let navigate: @Sendable (String, JSONValue) -> Void
    let handleRequest: @Sendable (String, JSONValue) -> Void

    /// Loads the plugin described by `manifest` from `library`. `options` replaces the
    /// manifest's autostart options, by service name.
    func load(_ manifest: PluginManifest, library url: URL, options: [String: JSONValue]) -> Result<PluginContext, PluginFailure> {
        let library: PluginLibrary
        switch PluginLibrary.open(url) {
        case .success(let opened): library = opened
        case .failure(let failure): return .failure(failure)
        }
        var pluginLogger = logger
        pluginLogger[metadataKey: "plugin"] = "\(manifest.id)"
        let context = PluginContext(pluginID: manifest.id, declaredServices: manifest.services, bus: bus,
                                    logger: pluginLogger, navigate: navigate, handleRequest: handleRequest)
        let info = library.entry(HostAPITable.make(for: context))
        let (registrations, refusal) = context.takeRegistrations()
        if let failure = refusal ?? check(info, manifest: manifest, library: url) ?? checkNamesFree(registrations) {
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

    /// Why the entry's info is unacceptable, or `nil`.
    private func check(_ info: UnsafePointer<trellis_plugin_info>?, manifest: PluginManifest, library: URL) -> PluginFailure? {
        guard let info else {
            return .invalidInfo(path: library.path, reason: "\(TRELLIS_PLUGIN_ENTRY_SYMBOL) returned no plugin info")
        }
        let size = Int(info.pointee.struct_size)
        guard size >= MemoryLayout<trellis_plugin_info>.size else {
            return .invalidInfo(path: library.path, reason: "plugin info of \(size) bytes, expected at least \(MemoryLayout<trellis_plugin_info>.size)")
        }
        if let refusal = info.pointee.refusal {
            return .refusedByPlugin(reason: String(cString: refusal))
        }
        let version = Int(info.pointee.abi_version)
        guard version == manifest.abiVersion else {
            return .abiMismatch(path: library.path, manifest: manifest.abiVersion, library: version)
        }
        return nil
    }

    /// Why one of `registrations` cannot be registered (its name is taken), or `nil`.
    private func checkNamesFree(_ registrations: [ServiceCallbacks]) -> PluginFailure? {
        let owners = Dictionary(services.services.map { ($0.name, $0.owner) }, uniquingKeysWith: { first, _ in first })
        for callbacks in registrations {
            if let owner = owners[callbacks.name] {
                return .serviceAlreadyRegistered(service: callbacks.name, reason: "registered by \(owner == "host" ? "the host" : "plugin \"\(owner)\"")")
            }
        }
        return nil
    }
}
