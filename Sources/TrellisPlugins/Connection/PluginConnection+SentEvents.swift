import DequeModule

extension PluginConnection {
    /// The events sent to the plugin and not done yet: written by ``deliver(_:to:)`` on the
    /// triggering thread, read by the actor.
    struct SentEvents: Sendable {
        /// Their messages, oldest first.
        var messages = Deque<String>()
        /// When the plugin could begin the oldest: its previous event or call done.
        var since = Duration.zero
        var closed = false
        /// When the connection's alarm rings, if it is set.
        var alarm: Duration?
    }
}
