extension PluginHost {
    /// The plugins, in processes of their own, that were sent an event they have not finished
    /// handling: what they trigger in answer is still to come. A front end that settles before
    /// it shows a snapshot (`HeadlessFrontend.settle()`) waits until there are none, as a
    /// plugin in the shell's process has answered before `trigger` returns.
    public var pluginsHandlingEvents: [String] {
        state.withLock { $0.loaded }.filter { $0.value.process?.process.isHandlingEvents == true }.map(\.key).sorted()
    }
}
