import TrellisCore

extension PluginHost: PendingWorkSource {
    /// The plugins that were sent an event they have not finished handling: what they trigger
    /// in answer is still to come.
    public var pluginsHandlingEvents: [String] {
        state.withLock { $0.connections }.filter { $0.value.isHandlingEvents }.map(\.key).sorted()
    }

    /// What the host has under way: plugins starting (those left for ``finishStartup()`` among
    /// them, and those an event, a page or a command is activating), what each plugin's process
    /// is to answer, and plugins handling an event. A front end that settles before it shows a
    /// snapshot (`HeadlessFrontend.settle()`) waits until there is none.
    public var pendingWork: [String] {
        let (starting, connections) = state.withLock { ($0.deferred + $0.starting.subtracting($0.deferred).sorted(), $0.connections) }
        var work = starting.map { "plugin \"\($0)\": starting" }
        for (id, connection) in connections.sorted(by: { $0.key < $1.key }) where !connection.isClosed {
            work += connection.waitingFor.withLock { $0 }.map { "plugin \"\(id)\": waiting for \($0)" }
            if connection.isHandlingEvents { work.append("plugin \"\(id)\": handling an event") }
        }
        return work
    }

    /// Activates waiting plugin `id` in a task of its own, counted in ``pendingWork`` from now
    /// until it is done (for a watcher, a page or a menu, which cannot wait for it).
    func requestActivation(_ id: String, then next: (@Sendable (PluginReport?) -> Void)? = nil) {
        state.withLock { _ = $0.starting.insert(id) }
        Task {
            let report = await activate(id)
            next?(report)
            state.withLock { _ = $0.starting.remove(id) }
        }
    }
}
