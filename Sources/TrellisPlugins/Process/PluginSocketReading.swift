import TrellisCore
import Foundation

/// Who reads a plugin process's socket: one thread at a time, the reader. It handles what
/// it reads itself when nothing else does (see ``PluginInbox``), so it may find itself inside
/// a handler that must wait for the plugin, which only a reader can hear. Then the role
/// passes to a new thread (``handOver(if:)``), and the old one, once its handler returns, stops
/// reading (``isHeld``).
///
/// The role changes hands only while its holder is inside a handler (``handling(_:)``), away
/// from the socket's buffered bytes, which pass to the new reader with it.
final class PluginSocketReading: Sendable {
    private struct Role {
        var reader: pthread_t?
        /// Whether the reader is inside a handler.
        var isHandling = false
        /// Whether the reader found the end of the stream: it ends the process (handling
        /// what was read first), and no new reader would find anything to read.
        var atEnd = false

        var isHeldHere: Bool { reader.map { pthread_equal($0, pthread_self()) != 0 } ?? false }
    }

    /// The socket's read side, with the bytes read and not yet handled.
    // @unchecked Sendable: `reader` is used only by the thread that holds the role (`Role.reader`,
    // set and cleared under `role`'s lock). It changes hands only while its holder is inside a
    // handler, away from `reader`, and the next holder is a thread started after the change:
    // each use happens before the next holder's.
    private final class Socket: @unchecked Sendable {
        var reader: PluginWire.Reader
        init(_ wire: PluginWire) { reader = PluginWire.Reader(wire) }
    }

    private let role = LockedState(Role())
    private let socket: Socket

    init(wire: PluginWire) {
        socket = Socket(wire)
    }

    /// Makes the calling thread the reader.
    func take() {
        role.withLock { $0.reader = pthread_self() }
    }

    /// Says that the reader found the end of the stream: the role stays with it from now on.
    func reachedEnd() {
        role.withLock { $0.atEnd = true }
    }

    /// Whether the calling thread is the reader.
    var isHeld: Bool { role.withLock { $0.isHeldHere } }

    /// The next message from the socket, read by the reader; nil at its end.
    func next() throws(PluginWire.Malformed) -> PluginMessage? {
        try socket.reader.next()
    }

    /// Runs `body`, a handler, noting while it runs that the reader is inside one when the
    /// calling thread is the reader.
    func handling<Result>(_ body: () -> Result) -> Result {
        let onReader = role.withLock { role in
            guard role.isHeldHere else { return false }
            role.isHandling = true
            return true
        }
        defer {
            if onReader {
                role.withLock { role in if role.isHeldHere { role.isHandling = false } }
            }
        }
        return body()
    }

    /// When the reader is inside a handler: the calling thread is the reader (it is about to
    /// wait for the plugin), or a thread waiting for an answer found the handler stuck (the
    /// inbox decides that: ``PluginInbox/stuckAfter``).
    enum HandOver {
        case fromThisThread
        case stuck
    }

    /// Gives up the role when the reader is inside a handler and `when` holds; returns whether
    /// it did, and the caller then starts a new reader thread.
    func handOver(if when: HandOver) -> Bool {
        role.withLock { role in
            guard !role.atEnd, role.isHandling else { return false }
            if case .fromThisThread = when, !role.isHeldHere { return false }
            role.reader = nil
            role.isHandling = false
            return true
        }
    }
}
