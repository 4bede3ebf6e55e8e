import DequeModule
import TrellisCore
#if canImport(Glibc)
import Glibc
#endif

/// The shell's end of one plugin process's socket, read and written without ever blocking a
/// thread, on the connection's ``PluginEventLoop`` (NIO's channel on its event loop).
///
/// - Reading: whenever the socket is readable, the channel reads what is there (at most
///   ``readBudget`` bytes per turn, so that one chatty plugin does not hold the loop), cuts
///   it into frames and gives each to `onInput`, in order; then ``Input/closed`` at the end of
///   the stream, or ``Input/malformed(_:)`` for a frame it cannot read (and reads no more).
///   When `onInput` answers true, the channel stops reading until ``resumeReading()``: the
///   plugin's socket buffer fills and its own writes block — how a slow consumer slows a
///   flooding plugin down.
/// - Writing: ``send(_:)`` writes a frame at once when nothing is queued and the socket takes it
///   whole (the usual case: one system call on the sender's thread), else queues it; the
///   queue is written as the plugin reads. More than `capacity` frames, or ``capacityBytes``,
///   queued means the plugin fell behind: `send` says so and queues nothing more.
///
/// The channel owns the descriptor; the loop closes it after ``close()``, between two polls, so
/// that a queued frame never reaches a descriptor number reused since.
final class PluginChannel: Sendable {
    /// What the channel read.
    enum Input: Sendable {
        case frame(PluginMessage)
        /// A frame that could not be read: the channel reads no more.
        case malformed(String)
        /// The end of the stream (the process closed its end, or ended).
        case closed
    }

    /// What ``send(_:)`` did with a frame.
    enum Outcome: Sendable, Equatable {
        /// Written, or queued to be written.
        case sent
        /// The queue is full: the plugin fell behind.
        case full
        /// The peer is gone, or the channel closed.
        case closed
    }

    /// The most bytes read in one turn of the loop (a 1 MB page takes 64 turns). The frames of
    /// a turn are given one by one, and give way to the loop's other work after each (see
    /// ``deliverDecoded(_:yielding:)``).
    static let readBudget = 16 * 1024
    /// The most bytes queued for a plugin that does not read.
    static let capacityBytes = 64 * 1024 * 1024

    private struct State {
        var decoder = PluginWire.Decoder()
        /// Frames read and decoded, not given to `onInput` yet.
        var decoded = Deque<PluginMessage>()
        /// Frames to write, in order; the first perhaps partly written already (`written`).
        var queue = Deque<[UInt8]>()
        var queuedBytes = 0
        var written = 0
        var reading = false
        var readPaused = false
        var readEnded = false
        /// No frame is written any more (closed here, or the peer is gone).
        var closed = false
        /// ``close()`` was called.
        var cancelled = false

        /// What the loop is to watch the socket for.
        var interest: PluginEventLoop.Interest {
            PluginEventLoop.Interest(reading: reading && !readPaused && !readEnded && !cancelled,
                                     writing: !queue.isEmpty && !closed)
        }
    }

    let descriptor: Int32
    private let capacity: Int
    private let loop: PluginEventLoop
    private let state = LockedState(State())
    /// What ``start(onInput:)`` was given.
    private let onInput = LockedState<(@Sendable (Input) -> Bool)?>(nil)

    /// A channel on `descriptor` (made non-blocking here), which it owns from now on, served on
    /// `loop` once started.
    init(descriptor: Int32, loop: PluginEventLoop, capacity: Int) {
        self.descriptor = descriptor
        self.capacity = capacity
        self.loop = loop
        _ = fcntl(descriptor, F_SETFL, fcntl(descriptor, F_GETFL) | O_NONBLOCK)
    }

    /// Starts reading (and writing what waits). `onInput` runs on the loop, one input at a
    /// time; it answers true to stop reading until ``resumeReading()``.
    func start(onInput: @escaping @Sendable (Input) -> Bool) {
        self.onInput.withLock { $0 = onInput }
        state.withLock { state in
            state.reading = true
            loop.watch(descriptor, for: state.interest) { [weak self, loop, descriptor] readiness in
                // The channel released (its connection gone): the descriptor is forgotten and
                // closed, so that the loop never spins on a readiness no one takes.
                guard let self else { return loop.close(descriptor) }
                if readiness.writable || (readiness.ended && !readiness.readable) { writeQueued() }
                if readiness.readable || readiness.ended { readAvailable(onInput) }
            }
        }
    }

    /// Reads all the socket holds now, paused or not, on the loop: once the process has ended,
    /// everything it wrote is there, and is taken before its end is.
    func readWhatRemains() {
        guard let onInput = self.onInput.withLock({ $0 }) else { return }
        readAvailable(onInput, budget: .max, evenIfPaused: true)
    }

    /// Changes the state and tells the loop what to watch for now. The loop's lock is taken
    /// inside this one, never the other way round.
    private func updateInterest(_ change: (inout State) -> Void) {
        state.withLock { state in
            change(&state)
            loop.change(descriptor, to: state.interest)
        }
    }

    // MARK: Reading

    private func readAvailable(_ onInput: @Sendable (Input) -> Bool, budget: Int = readBudget, evenIfPaused: Bool = false) {
        guard state.withLock({ $0.interest.reading || (evenIfPaused && $0.reading && !$0.readEnded && !$0.cancelled) }) else { return }
        // What an earlier turn decoded comes first.
        switch deliverDecoded(onInput, yielding: !evenIfPaused) {
        case .yielded: return
        case .delivered(let pause):
            if pause && !evenIfPaused { return pauseReading() }
        }
        var chunk = [UInt8](repeating: 0, count: 16 * 1024)
        var total = 0
        while total < budget {
            // The C boundary: read(2) writes at most `count` bytes into the chunk, which
            // outlives the call.
            let count = chunk.withUnsafeMutableBytes { Glibc.read(descriptor, $0.baseAddress, $0.count) }
            if count < 0 {
                if errno == EINTR { continue }
                if errno == EAGAIN || errno == EWOULDBLOCK { return }
            }
            guard count > 0 else {
                let leftover = state.withLock { state -> Int in
                    state.readEnded = true
                    return state.decoder.buffered
                }
                stopReading()
                if leftover > 0 { _ = onInput(.malformed("a frame cut short by the end of the stream (\(leftover) bytes)")) }
                _ = onInput(.closed)
                return
            }
            total += count
            let decoded: Result<Void, PluginWire.Malformed> = state.withLock { state in
                Result { () throws(PluginWire.Malformed) in state.decoded.append(contentsOf: try state.decoder.frames(after: chunk[..<count])) }
            }
            switch decoded {
            case .success:
                switch deliverDecoded(onInput, yielding: !evenIfPaused) {
                case .yielded: return
                case .delivered(let pause):
                    if pause && !evenIfPaused { return pauseReading() }
                }
            case .failure(let malformed):
                state.withLock { $0.readEnded = true }
                stopReading()
                _ = onInput(.malformed(malformed.reason))
                return
            }
        }
    }

    /// What ``deliverDecoded(_:yielding:)`` did.
    private enum Delivery {
        /// Gave every decoded frame; `pause`: one of them asked to read no more for now.
        case delivered(pause: Bool)
        /// Gave way to the loop's work; the rest follow it.
        case yielded
    }

    /// Gives the frames decoded so far to `onInput`, in order (all of them, even after one
    /// asked to pause: they were read already). `yielding`: after each frame, when the loop
    /// has other work waiting (a call's request to send, the caller of a reply to resume),
    /// stops there and gives the rest after that work — so a request never waits behind a
    /// turn of frames whose watchers are slow (NIO reads a few messages per turn of its loop
    /// for the same reason). The order of the frames is kept: a later turn gives these first.
    private func deliverDecoded(_ onInput: @Sendable (Input) -> Bool, yielding: Bool) -> Delivery {
        var pause = false
        while let frame = state.withLock({ $0.decoded.popFirst() }) {
            if onInput(.frame(frame)) { pause = true }
            if yielding, state.withLock({ !$0.decoded.isEmpty }), loop.hasWaitingWork {
                if pause { pauseReading() }
                loop.execute { [weak self] in self?.deliverRest() }
                return .yielded
            }
        }
        return .delivered(pause: pause)
    }

    /// Gives the frames a yielding turn left, on the loop.
    private func deliverRest() {
        guard let onInput = onInput.withLock({ $0 }) else { return }
        if case .delivered(pause: true) = deliverDecoded(onInput, yielding: true) { pauseReading() }
    }

    /// Reads nothing more until ``resumeReading()``.
    private func pauseReading() {
        updateInterest { $0.readPaused = true }
    }

    /// Reads again after ``pauseReading()``.
    func resumeReading() {
        updateInterest { $0.readPaused = false }
    }

    /// Reads nothing more.
    private func stopReading() {
        updateInterest { $0.readEnded = true }
    }

    // MARK: Writing

    /// Writes `frame` now, or queues it behind the others.
    @discardableResult
    func send(_ frame: [UInt8]) -> Outcome {
        state.withLock { state -> Outcome in
            guard !state.closed else { return .closed }
            if state.queue.isEmpty {
                // A non-blocking write: the lock is held for one system call.
                guard let written = write(frame[...]) else {
                    state.closed = true
                    return .closed
                }
                if written == frame.count { return .sent }
                state.written = written
            } else if state.queue.count >= capacity || state.queuedBytes + frame.count > Self.capacityBytes {
                return .full
            }
            state.queue.append(frame)
            state.queuedBytes += frame.count
            if state.queue.count == 1 { loop.change(descriptor, to: state.interest) }
            return .sent
        }
    }

    /// Writes what the socket takes of the queue; stops watching for room once it is empty.
    private func writeQueued() {
        state.withLock { state in
            while let frame = state.queue.first {
                guard let written = write(frame[state.written...]) else {
                    state.closed = true
                    state.queue.removeAll()
                    state.queuedBytes = 0
                    break
                }
                state.written += written
                guard state.written == frame.count else { return }
                state.queue.removeFirst()
                state.queuedBytes -= frame.count
                state.written = 0
            }
            loop.change(descriptor, to: state.interest)
        }
    }

    /// What the socket takes of `bytes` without blocking (perhaps nothing); nil when the peer
    /// is gone.
    private func write(_ bytes: ArraySlice<UInt8>) -> Int? {
        while true {
            // The C boundary: send(2) reads at most `count` bytes of the slice, which outlives
            // the call. MSG_NOSIGNAL: a closed peer is an error, never SIGPIPE.
            let written = bytes.withUnsafeBytes { Glibc.send(descriptor, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL | MSG_DONTWAIT)) }
            if written >= 0 { return written }
            if errno == EINTR { continue }
            if errno == EAGAIN || errno == EWOULDBLOCK { return 0 }
            return nil
        }
    }

    // MARK: Closing

    /// Shuts the socket down both ways (the plugin process reads the end of its stream); the
    /// loop closes the descriptor before its next poll. Frames still queued are dropped. Only
    /// the first call does anything.
    func close() {
        let first = state.withLock { state -> Bool in
            guard !state.cancelled else { return false }
            state.cancelled = true
            state.closed = true
            state.readEnded = true
            state.queue.removeAll()
            state.queuedBytes = 0
            return true
        }
        guard first else { return }
        shutdown(descriptor, Int32(SHUT_RDWR))
        loop.close(descriptor)
    }
}
