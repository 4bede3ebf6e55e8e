import TrellisCore

/// The ports the sync tests' servers have used in this process, never handed out twice.
///
/// FlyingFox listens with SO_REUSEADDR, and on Linux two sockets that both set it may be given
/// the same port by `bind(port: 0)` when they bind at once: two tests' servers then shared a
/// port and answered each other's requests (a POST meeting another test's `failNext`). A port
/// is also kept after its server stops, since a client of a finished test may still retry it.
enum TestPorts {
    private static let used = LockedState<Set<Int>>([])

    /// Claims `port` for one server; false when another server of this process had it.
    static func claim(_ port: Int) -> Bool {
        used.withLock { $0.insert(port).inserted }
    }
}
