/// A service of a plugin in a process of its own, as the host's `ServiceRegistry` sees it:
/// `start` and `stop` are calls over the plugin's socket, each with a deadline
/// (``PluginProcess/startDeadline``, ``PluginProcess/stopDeadline``); a plugin that misses
/// one is stopped and reported as crashed.
final class ProcessServiceBridge: Service {
    private let name: String
    private let process: PluginProcess

    init(name: String, process: PluginProcess) {
        self.name = name
        self.process = process
    }

    func start(options: JSONValue, bus: EventBus) throws {
        guard process.context.phase == .active, !process.hasEnded else {
            throw PluginServiceError.pluginInactive(plugin: process.context.pluginID, service: name)
        }
        try process.startService(name, options: options)
    }

    func stop(options: JSONValue) {
        guard !process.hasEnded else { return }
        process.stopService(name, options: options)
    }
}
