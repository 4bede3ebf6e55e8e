import TrellisCore

/// A service of a plugin in a process of its own, as the host's `ServiceRegistry` sees it:
/// `start` and `stop` are calls over the plugin's socket, each with a deadline
/// (``PluginDeadlines/start``, ``PluginDeadlines/stop``); a plugin that misses
/// one is stopped and reported as crashed.
final class ProcessServiceBridge: Service {
    private let name: String
    private let handle: PluginProcessHandle

    init(name: String, handle: PluginProcessHandle) {
        self.name = name
        self.handle = handle
    }

    func start(options: JSONValue, bus: EventBus) throws {
        let process = handle.process
        guard process.context.phase == .active, !process.hasEnded else {
            throw PluginServiceError.pluginInactive(plugin: process.context.pluginID, service: name)
        }
        try process.startService(name, options: options)
    }

    func stop(options: JSONValue) {
        let process = handle.process
        guard !process.hasEnded else { return }
        process.stopService(name, options: options)
    }
}
