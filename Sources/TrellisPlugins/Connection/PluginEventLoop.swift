import CLinux
import DequeModule
import Dispatch
import Foundation
import TrellisCore
#if canImport(Glibc)
import Glibc
#endif

/// The event loop of one plugin connection, as SwiftNIO gives each channel one: a thread that
/// waits in `poll(2)` on the connection's descriptors (its socket, the process's stderr and
/// pidfd) and runs, one at a time and in order, what is ready and the jobs of the connection's
/// actor, whose serial executor it is.
///
/// A frame read from the socket is posted to the connection's mailbox and taken by its actor on
/// this thread, in the same turn of the loop: one thread wakes up per message, as for a
/// program that reads its socket itself. On libdispatch's sources, which Linux serves from a
/// manager thread that then wakes a worker for the queue, a round trip to a plugin took two to
/// four times the floor (`trellis-bench plugins`, `ratio plugin-ipc-roundtrip`).
///
/// Any thread may enqueue a job or change what a descriptor is watched for; the loop is woken
/// through an eventfd only when it is waiting in `poll`. A descriptor is forgotten, and closed,
/// on the loop, between two polls: never while a poll might still report it, never after its
/// number was reused. ``stop()`` ends the thread once it has nothing left to watch; jobs
/// enqueued after that run on a serial dispatch queue, in order.
final class PluginEventLoop: SerialExecutor {
    /// What a descriptor is watched for.
    struct Interest: Sendable, Equatable {
        var reading: Bool
        var writing: Bool
    }

    /// A descriptor's readiness, as `poll` reported it.
    struct Readiness: Sendable {
        let readable: Bool
        let writable: Bool
        /// Hung up or in error: the handler finds out which by reading or writing.
        let ended: Bool
    }

    private struct Watched {
        var interest: Interest
        let handler: @Sendable (Readiness) -> Void
    }

    private enum Work {
        case job(UnownedJob)
        case closure(@Sendable () -> Void)
    }

    private struct State {
        var work = Deque<Work>()
        var watched: [Int32: Watched] = [:]
        /// Descriptors to forget and close before the next poll.
        var closing: [Int32] = []
        /// The loop waits in `poll` (or is about to): a new job must wake it.
        var polling = false
        var stopping = false
        /// The thread has ended: work goes to `afterwards`.
        var ended = false
    }

    private let state = LockedState(State())
    private let wakeDescriptor: Int32
    private let afterwards: DispatchQueue
    /// The loop's thread (its Foundation object, which lives as long as the thread: the
    /// identifier is not reused meanwhile); read by ``checkIsolated()``.
    private let loopThread = LockedState<ObjectIdentifier?>(nil)

    init(name: String) {
        wakeDescriptor = eventfd(0, Int32(EFD_NONBLOCK | EFD_CLOEXEC))
        precondition(wakeDescriptor >= 0, "eventfd failed: errno \(errno)")
        afterwards = DispatchQueue(label: name)
        let thread = Thread { [self] in run() }
        thread.name = name
        thread.start()
    }

    deinit {
        Glibc.close(wakeDescriptor)
    }

    // MARK: Work

    func enqueue(_ job: consuming ExecutorJob) {
        submit(.job(UnownedJob(job)))
    }

    /// Whether work was enqueued that the loop has not begun: a handler running on the loop
    /// asks, to give way to it.
    var hasWaitingWork: Bool {
        state.withLock { !$0.work.isEmpty }
    }

    /// Runs `work` on the loop, after what was enqueued before it.
    func execute(_ work: @escaping @Sendable () -> Void) {
        submit(.closure(work))
    }

    func asUnownedSerialExecutor() -> UnownedSerialExecutor {
        UnownedSerialExecutor(ordinary: self)
    }

    /// Lets a descriptor's handler, run by the loop, assume the connection actor's isolation.
    func checkIsolated() {
        let onLoop = loopThread.withLock { $0 == ObjectIdentifier(Thread.current) }
        if !onLoop { dispatchPrecondition(condition: .onQueue(afterwards)) }
    }

    private func submit(_ work: Work) {
        let (wake, ended) = state.withLock { state -> (Bool, Bool) in
            if state.ended { return (false, true) }
            state.work.append(work)
            return (state.polling, false)
        }
        if ended {
            afterwards.async { [self] in perform(work) }
        } else if wake {
            wakeUp()
        }
    }

    private func perform(_ work: Work) {
        switch work {
        case .job(let job): job.runSynchronously(on: asUnownedSerialExecutor())
        case .closure(let closure): closure()
        }
    }

    // MARK: Descriptors

    /// Watches `descriptor` for `interest`; `handler` runs on the loop whenever it is ready for
    /// it (or has ended). Any thread.
    func watch(_ descriptor: Int32, for interest: Interest, handler: @escaping @Sendable (Readiness) -> Void) {
        let wake = state.withLock { state -> Bool in
            state.watched[descriptor] = Watched(interest: interest, handler: handler)
            return state.polling
        }
        if wake { wakeUp() }
    }

    /// Changes what `descriptor` is watched for (nothing: not watched until changed again).
    /// Any thread.
    func change(_ descriptor: Int32, to interest: Interest) {
        let wake = state.withLock { state -> Bool in
            guard state.watched[descriptor]?.interest != interest else { return false }
            state.watched[descriptor]?.interest = interest
            return state.polling
        }
        if wake { wakeUp() }
    }

    /// Stops watching `descriptor` and closes it, on the loop before its next poll (at once,
    /// once the loop has ended). Any thread; its handler is not called again.
    func close(_ descriptor: Int32) {
        let closeNow = state.withLock { state -> Bool in
            state.watched[descriptor] = nil
            guard !state.ended else { return true }
            state.closing.append(descriptor)
            return false
        }
        if closeNow { Glibc.close(descriptor) } else { wakeUp() }
    }

    /// Ends the thread once no descriptor is watched any more.
    func stop() {
        state.withLock { $0.stopping = true }
        wakeUp()
    }

    private func wakeUp() {
        var one: UInt64 = 1
        // The C boundary: write(2) reads the 8 bytes of `one`, which outlives the call.
        _ = Glibc.write(wakeDescriptor, &one, 8)
    }

    // MARK: The loop

    private func run() {
        loopThread.withLock { $0 = ObjectIdentifier(Thread.current) }
        var descriptors: [pollfd] = []
        var handlers: [@Sendable (Readiness) -> Void] = []
        while true {
            // Closes what is to be closed, takes the work, and says whether to poll.
            let turn = state.withLock { state -> (work: Deque<Work>, closing: [Int32], end: Bool) in
                let closing = state.closing
                state.closing = []
                let work = state.work
                state.work = []
                if work.isEmpty, state.stopping, state.watched.isEmpty {
                    state.ended = true
                    return ([], closing, true)
                }
                descriptors.removeAll(keepingCapacity: true)
                handlers.removeAll(keepingCapacity: true)
                descriptors.append(pollfd(fd: wakeDescriptor, events: Int16(POLLIN), revents: 0))
                for (descriptor, watched) in state.watched where watched.interest.reading || watched.interest.writing {
                    let events = (watched.interest.reading ? Int16(POLLIN) : 0) | (watched.interest.writing ? Int16(POLLOUT) : 0)
                    descriptors.append(pollfd(fd: descriptor, events: events, revents: 0))
                    handlers.append(watched.handler)
                }
                state.polling = work.isEmpty
                return (work, closing, false)
            }
            for descriptor in turn.closing { Glibc.close(descriptor) }
            if turn.end {
                // Jobs run on `afterwards` from now on; a later thread may get this one's identifier.
                loopThread.withLock { $0 = nil }
                break
            }
            for work in turn.work { perform(work) }
            // The C boundary: poll(2) reads and writes `count` entries of the array, which
            // outlives the call. With work just done, it only looks (jobs it enqueued run next).
            let ready = descriptors.withUnsafeMutableBufferPointer {
                poll($0.baseAddress, nfds_t($0.count), turn.work.isEmpty ? -1 : 0)
            }
            state.withLock { $0.polling = false }
            guard ready > 0 else { continue }
            if descriptors[0].revents != 0 {
                var count: UInt64 = 0
                // The C boundary: read(2) writes the 8 bytes of `count`.
                _ = Glibc.read(wakeDescriptor, &count, 8)
            }
            for index in descriptors.indices.dropFirst() where descriptors[index].revents != 0 {
                let events = Int32(descriptors[index].revents)
                // A descriptor forgotten since this poll began is not reported.
                let current = state.withLock { $0.watched[descriptors[index].fd] != nil && !$0.closing.contains(descriptors[index].fd) }
                guard current else { continue }
                handlers[index - 1](Readiness(readable: events & Int32(POLLIN) != 0,
                                              writable: events & Int32(POLLOUT) != 0,
                                              ended: events & Int32(POLLHUP | POLLERR | POLLNVAL) != 0))
            }
        }
    }
}
