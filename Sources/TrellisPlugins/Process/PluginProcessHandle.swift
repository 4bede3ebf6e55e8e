import TrellisCore

/// The process a plugin runs in now: its services' bridges call through this, so that a
/// restarted plugin's services reach its new process (see ``PluginHost``'s restart policy).
final class PluginProcessHandle: Sendable {
    private let current: LockedState<PluginProcess>

    init(_ process: PluginProcess) {
        current = LockedState(process)
    }

    /// The plugin's process (perhaps one that has ended).
    var process: PluginProcess { current.withLock { $0 } }

    /// Makes `process` the plugin's process.
    func replace(with process: PluginProcess) {
        current.withLock { $0 = process }
    }
}
