import TrellisCore

/// The plugin host's operations (load, enable, disable, reload, restart after a crash), run
/// one at a time in the order they were asked for, each to its end, however many awaits it
/// takes: two operations on one plugin never interleave.
///
/// An operation must not wait for another one (it would wait for itself to end): the host's
/// own code calls the work of an operation directly inside one. A watcher of an event an
/// operation triggers that wants another operation asks for it (`Task { await host.setEnabled(…) }`):
/// it runs once the current one is done.
final class PluginOperations: Sendable {
    /// The last operation asked for: the next one starts after it.
    private let tail = LockedState<Task<Void, Never>?>(nil)

    /// Runs `operation` after every operation asked for before, and returns its result.
    func run<Result: Sendable>(_ operation: @escaping @Sendable () async -> Result) async -> Result {
        let task = tail.withLock { tail -> Task<Result, Never> in
            let previous = tail
            let task = Task {
                await previous?.value
                return await operation()
            }
            tail = Task { _ = await task.value }
            return task
        }
        return await task.value
    }
}
