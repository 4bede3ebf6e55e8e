import TrellisCore

extension PluginHost: PendingWorkSource {
    /// The plugins, in processes of their own, that were sent an event they have not finished
    /// handling: what they trigger in answer is still to come.
    public var pluginsHandlingEvents: [String] {
        state.withLock { $0.loaded }.filter { $0.value.process?.process.isHandlingEvents == true }.map(\.key).sorted()
    }

    /// What the host has under way: plugins starting (those left for ``finishStartup()`` among
    /// them) and plugins handling an event in their process. A front end that settles before it
    /// shows a snapshot (`HeadlessFrontend.settle()`) waits until there is none, as a plugin in
    /// the shell's process has answered before `trigger` returns.
    public var pendingWork: [String] {
        let starting = state.withLock { $0.deferred + $0.starting.sorted() }
        return starting.map { "plugin \"\($0)\": starting" } + pluginsHandlingEvents.map { "plugin \"\($0)\": handling an event" }
    }
}
