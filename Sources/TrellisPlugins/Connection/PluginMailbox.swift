import TrellisCore

/// What reaches one plugin connection, in the order it happened: the messages its process sent,
/// and what happened to the process and the connection's requests.
enum PluginInbound: Sendable {
    /// A message the process sent.
    case message(ProcessMessage, bytes: Int)
    /// A frame that could not be read, or a message that does not decode: the process does not
    /// follow the protocol.
    case malformed(String)
    /// The process's socket reached its end.
    case closed
    /// The process ended, with this wait status.
    case exited(Int32)
    /// The process's stderr reached its end.
    case outputEnded
    /// A deadline of the connection's may have passed: the connection looks at its clock.
    case deadline
}

/// The ordered mailbox of one plugin connection (one per connection, as a SwiftNIO channel has
/// one event loop): everything that reaches the connection is posted here and taken one at a
/// time by its actor. That order is the whole guarantee: what a process sent before an answer
/// is handled before the call that waits for the answer goes on, because it was posted first.
///
/// Messages from the process count against a bound: past ``highWater`` of them waiting, ``post(_:)``
/// says so and the connection stops reading the socket (the plugin's writes block once its
/// socket buffer is full) until the actor has taken them down to ``lowWater``. The connection's
/// own notices (the end of the process, a deadline) are never held back.
final class PluginMailbox: Sendable {
    /// Process messages waiting beyond which reading stops.
    static let highWater = 1_000
    /// Process messages waiting below which reading starts again.
    static let lowWater = 250

    let inbound: AsyncStream<PluginInbound>
    private let continuation: AsyncStream<PluginInbound>.Continuation
    /// Process messages posted and not taken yet.
    private let waiting = LockedState(0)

    init() {
        (inbound, continuation) = AsyncStream.makeStream(of: PluginInbound.self)
    }

    /// Posts `item`; true when it leaves the mailbox over ``highWater``: stop reading.
    @discardableResult
    func post(_ item: PluginInbound) -> Bool {
        let full = Self.counts(item) ? waiting.withLock { waiting in
            waiting += 1
            return waiting > Self.highWater
        } : false
        continuation.yield(item)
        return full
    }

    /// Says the actor took `item`; true when that brings the mailbox down to ``lowWater``:
    /// read again.
    func took(_ item: PluginInbound) -> Bool {
        guard Self.counts(item) else { return false }
        return waiting.withLock { waiting in
            waiting -= 1
            return waiting == Self.lowWater
        }
    }

    /// Ends the mailbox: the actor's loop ends once it has taken what is in it.
    func finish() {
        continuation.finish()
    }

    private static func counts(_ item: PluginInbound) -> Bool {
        switch item {
        case .message, .malformed: true
        case .closed, .exited, .outputEnded, .deadline: false
        }
    }
}
