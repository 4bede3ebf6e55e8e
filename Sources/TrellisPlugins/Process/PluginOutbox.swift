import TrellisCore
import DequeModule
import Dispatch
#if canImport(Glibc)
import Glibc
#endif

/// What the shell writes to one plugin process. A frame is written at once, on the sender's
/// thread, when nothing is queued before it and the socket takes it whole without blocking
/// (the usual case: one system call, no thread hand-off). Otherwise it is queued, and a writer
/// of the outbox's own writes the queue in order, waiting for the plugin to read: a sender (a
/// watcher on the GTK thread, say) never waits for a plugin. More than `capacity` frames
/// queued means the plugin fell behind: ``send(_:)`` says so, and queues nothing more.
///
/// The outbox owns the wire's descriptor, and closes it only when it is released: a frame still
/// queued never reaches a reused descriptor number.
final class PluginOutbox: Sendable {
    enum Outcome {
        /// Written, or queued to be written.
        case sent
        /// The queue is full: the plugin fell behind.
        case full
        /// The peer is gone.
        case closed
    }

    private struct State {
        /// Frames to write, in order; the first perhaps partly written already (`written`).
        var queue = Deque<[UInt8]>()
        var written = 0
        /// Whether the writer is at work (it alone writes while the queue is not empty).
        var writing = false
        var closed = false
    }

    private let wire: PluginWire
    private let capacity: Int
    private let state = LockedState(State())
    private let writer: DispatchQueue

    init(wire: PluginWire, label: String, capacity: Int) {
        self.wire = wire
        self.capacity = capacity
        self.writer = DispatchQueue(label: label)
    }

    deinit {
        close(wire.descriptor)
    }

    /// Writes `frame` now, or queues it behind the others.
    func send(_ frame: [UInt8]) -> Outcome {
        let (outcome, startWriter) = state.withLock { state -> (Outcome, Bool) in
            guard !state.closed else { return (.closed, false) }
            if state.queue.isEmpty {
                // The write cannot block (MSG_DONTWAIT), so the lock is held only for one call.
                guard let written = wire.write(frame[...], waiting: false) else {
                    state.closed = true
                    return (.closed, false)
                }
                if written == frame.count { return (.sent, false) }
                state.written = written
            } else if state.queue.count >= capacity {
                return (.full, false)
            }
            state.queue.append(frame)
            defer { state.writing = true }
            return (.sent, !state.writing)
        }
        if startWriter { writer.async { self.writeQueue() } }
        return outcome
    }

    /// The frames queued and not yet written whole.
    var queued: Int { state.withLock { $0.queue.count } }

    /// Writes the queue until it is empty, waiting for the socket as needed; the first frame is
    /// the writer's alone while the queue is not empty, so it is written outside the lock.
    private func writeQueue() {
        while true {
            guard let (frame, offset) = state.withLock({ state in state.queue.first.map { ($0, state.written) } }) else { return }
            let written = wire.write(frame[offset...], waiting: true)
            let more = state.withLock { state -> Bool in
                guard let written else {
                    state.closed = true
                    state.queue.removeAll()
                    state.writing = false
                    return false
                }
                state.written += written
                if state.written == frame.count {
                    state.queue.removeFirst()
                    state.written = 0
                }
                if state.queue.isEmpty { state.writing = false }
                return state.writing
            }
            if !more { return }
        }
    }
}
