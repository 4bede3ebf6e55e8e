import TrellisCore

/// The process a plugin runs in now: its services call through this, so that a restarted
/// plugin's services reach its new process (see ``PluginHost``'s restart policy).
final class PluginConnectionHandle: Sendable {
    private let current: LockedState<PluginConnection>

    init(_ connection: PluginConnection) {
        current = LockedState(connection)
    }

    /// The plugin's connection (perhaps to a process that has ended).
    var connection: PluginConnection { current.withLock { $0 } }

    /// Makes `connection` the plugin's.
    func replace(with connection: PluginConnection) {
        current.withLock { $0 = connection }
    }
}

/// A plugin's service, as the app's ``ServiceRegistry`` sees it: `start` and `stop` are requests
/// over the plugin's socket, each with a deadline (``PluginDeadlines/start``,
/// ``PluginDeadlines/stop``); a plugin that misses one is stopped and reported as crashed.
final class PluginService: Service {
    private let name: String
    private let handle: PluginConnectionHandle

    init(name: String, handle: PluginConnectionHandle) {
        self.name = name
        self.handle = handle
    }

    func start(options: JSONValue, bus: EventBus) async throws {
        let connection = handle.connection
        guard connection.context.phase == .active, await !connection.hasEnded else {
            throw PluginServiceError.pluginInactive(plugin: connection.pluginID, service: name)
        }
        try await connection.startService(name, options: options)
    }

    func stop(options: JSONValue) async {
        let connection = handle.connection
        guard await !connection.hasEnded else { return }
        await connection.stopService(name, options: options)
    }
}

/// Why a plugin's service cannot start; names the plugin and the service.
public enum PluginServiceError: Error, CustomStringConvertible, Sendable {
    /// The plugin's start callback returned an error, with the plugin's message.
    case startFailed(plugin: String, service: String, reason: String)
    /// The plugin failed to load or was disabled.
    case pluginInactive(plugin: String, service: String)

    public var description: String {
        switch self {
        case .startFailed(_, _, let reason):
            return reason
        case .pluginInactive(let plugin, let service):
            return "service \"\(service)\" belongs to plugin \"\(plugin)\", which is disabled or failed to load"
        }
    }
}
