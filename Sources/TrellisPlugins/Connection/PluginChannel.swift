import DequeModule
import Dispatch
import TrellisCore
#if canImport(Glibc)
import Glibc
#endif

/// The shell's end of one plugin process's socket, read and written without ever blocking a
/// thread: both directions are dispatch sources on a serial queue of the channel's own (NIO's
/// channel on its event loop).
///
/// - Reading: whenever the socket is readable, the channel reads what is there (at most
///   ``readBudget`` bytes per turn, so that one chatty plugin does not hold the queue), cuts
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
/// The channel owns the descriptor and closes it once its sources are cancelled (``close()``),
/// so that a queued frame never reaches a descriptor number reused since.
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

    /// The most bytes read in one turn of the queue.
    static let readBudget = 256 * 1024
    /// The most bytes queued for a plugin that does not read.
    static let capacityBytes = 64 * 1024 * 1024

    /// Where the write source stands: it runs only while frames wait for room.
    private enum Writing {
        case inactive, running, suspended
    }

    private struct State {
        var decoder = PluginWire.Decoder()
        /// Frames to write, in order; the first perhaps partly written already (`written`).
        var queue = Deque<[UInt8]>()
        var queuedBytes = 0
        var written = 0
        var writing = Writing.inactive
        var readPaused = false
        var readEnded = false
        /// No frame is written any more (closed here, or the peer is gone).
        var closed = false
        /// ``close()`` was called: the sources are cancelled.
        var cancelled = false
    }

    let descriptor: Int32
    private let capacity: Int
    private let queue: DispatchQueue
    private let state = LockedState(State())
    // libdispatch's sources may be suspended, resumed and cancelled from any thread; the Swift
    // overlay does not mark them Sendable. Their state changes are made under `state`'s lock.
    nonisolated(unsafe) private let readSource: DispatchSourceRead
    nonisolated(unsafe) private let writeSource: DispatchSourceWrite

    /// A channel on `descriptor` (made non-blocking here), which it owns from now on, served on
    /// `queue`. `onInput` runs there, one input at a time; it answers true to stop reading
    /// until ``resumeReading()``.
    init(descriptor: Int32, queue: DispatchQueue, capacity: Int, onInput: @escaping @Sendable (Input) -> Bool) {
        self.descriptor = descriptor
        self.capacity = capacity
        self.queue = queue
        _ = fcntl(descriptor, F_SETFL, fcntl(descriptor, F_GETFL) | O_NONBLOCK)
        readSource = DispatchSource.makeReadSource(fileDescriptor: descriptor, queue: queue)
        writeSource = DispatchSource.makeWriteSource(fileDescriptor: descriptor, queue: queue)
        readSource.setEventHandler { [weak self] in self?.readAvailable(onInput) }
        writeSource.setEventHandler { [weak self] in self?.writeQueued() }
        // The descriptor is closed once both sources are done with it.
        let group = DispatchGroup()
        group.enter()
        group.enter()
        readSource.setCancelHandler { group.leave() }
        writeSource.setCancelHandler { group.leave() }
        group.notify(queue: queue) { Glibc.close(descriptor) }
    }

    /// Starts reading.
    func start() {
        readSource.activate()
    }

    // MARK: Reading

    private func readAvailable(_ onInput: @Sendable (Input) -> Bool) {
        var chunk = [UInt8](repeating: 0, count: 64 * 1024)
        var total = 0
        while total < Self.readBudget {
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
            let frames: Result<[PluginMessage], PluginWire.Malformed> = state.withLock { state in
                Result { () throws(PluginWire.Malformed) in try state.decoder.frames(after: chunk[..<count]) }
            }
            switch frames {
            case .success(let frames):
                var pause = false
                for frame in frames {
                    if onInput(.frame(frame)) { pause = true }
                }
                if pause {
                    pauseReading()
                    return
                }
            case .failure(let malformed):
                state.withLock { $0.readEnded = true }
                stopReading()
                _ = onInput(.malformed(malformed.reason))
                return
            }
        }
    }

    /// Reads nothing more until ``resumeReading()``.
    private func pauseReading() {
        // Suspended and resumed under the lock, so that the two never cross.
        state.withLock { state in
            guard !state.readPaused, !state.readEnded, !state.closed else { return }
            state.readPaused = true
            readSource.suspend()
        }
    }

    /// Reads again after ``pauseReading()``.
    func resumeReading() {
        state.withLock { state in
            guard state.readPaused else { return }
            state.readPaused = false
            readSource.resume()
        }
    }

    /// Cancels the read source (resumed first: a suspended source is never cancelled).
    private func stopReading() {
        state.withLock { state in
            if state.readPaused { readSource.resume() }
            state.readPaused = false
        }
        readSource.cancel()
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
            // Started and stopped under the lock, so that the two never cross.
            switch state.writing {
            case .inactive: writeSource.activate()
            case .suspended: writeSource.resume()
            case .running: break
            }
            state.writing = .running
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
            guard !state.cancelled, state.writing == .running else { return }
            state.writing = .suspended
            writeSource.suspend()
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

    /// Shuts the socket down both ways (the plugin process reads the end of its stream) and
    /// releases the sources; the descriptor is closed once they are done. Frames still queued
    /// are dropped. Only the first call does anything.
    func close() {
        let readEnded = state.withLock { state -> Bool? in
            guard !state.cancelled else { return nil }
            state.cancelled = true
            state.closed = true
            state.queue.removeAll()
            state.queuedBytes = 0
            // A source is never cancelled while inactive or suspended (libdispatch's rule).
            switch state.writing {
            case .inactive: writeSource.activate()
            case .suspended: writeSource.resume()
            case .running: break
            }
            state.writing = .running
            defer { state.readEnded = true }
            return state.readEnded
        }
        guard let readEnded else { return }
        shutdown(descriptor, Int32(SHUT_RDWR))
        if !readEnded { stopReading() }
        writeSource.cancel()
    }
}
