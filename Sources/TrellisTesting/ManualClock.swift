import TrellisCore

/// A clock that moves only when the test says so (NIO's `EmbeddedEventLoop.advanceTime(by:)`):
/// a timeout, a back-off or a budget of calls a second is crossed in no real time. Give it to
/// what takes a clock (the sync, the plugin host through `PluginClock`).
///
/// Moving it wakes the sleeps now due and returns: it does not wait for what they wake to run.
/// What a test checks next is waited for as a condition (``eventually(_:_:)``,
/// ``waitForSleeper(dueIn:)``, ``advance(by:until:)``), never by yielding a number of times
/// and hoping the woken work ran.
///
/// ```swift
/// let clock = ManualClock()
/// let timeout = Task { try await clock.sleep(for: .seconds(30)) }  // as a request's timeout waits
/// await clock.waitForSleeper(dueIn: .seconds(30))
/// clock.advance(by: .seconds(30))                                 // it passes, at once
/// try await timeout.value
/// ```
public final class ManualClock: Clock, Sendable {
    public struct Instant: InstantProtocol {
        let offset: Duration
        public func advanced(by duration: Duration) -> Instant { Instant(offset: offset + duration) }
        public func duration(to other: Instant) -> Duration { other.offset - offset }
        public static func < (lhs: Instant, rhs: Instant) -> Bool { lhs.offset < rhs.offset }
    }

    private struct Sleeper {
        let deadline: Instant
        let continuation: CheckedContinuation<Void, any Error>
    }

    private struct State {
        var now = Instant(offset: .zero)
        var sleepers: [Int: Sleeper] = [:]
        var nextID = 0
    }

    private let state = LockedState(State())

    /// A clock at instant zero, with nothing waiting on it.
    public init() {}

    public var now: Instant { state.withLock { $0.now } }
    public var minimumResolution: Duration { .nanoseconds(1) }

    public func sleep(until deadline: Instant, tolerance: Duration?) async throws {
        let id = state.withLock { state in
            defer { state.nextID += 1 }
            return state.nextID
        }
        try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
                let due = state.withLock { state -> Bool in
                    if deadline <= state.now || Task.isCancelled { return true }
                    state.sleepers[id] = Sleeper(deadline: deadline, continuation: continuation)
                    return false
                }
                if due { continuation.resume() }
            }
            try Task.checkCancellation()
        } onCancel: {
            state.withLock { $0.sleepers.removeValue(forKey: id) }?.continuation.resume(throwing: CancellationError())
        }
    }

    /// Moves the clock on by `duration`, waking every sleep now due.
    public func advance(by duration: Duration) {
        let due = state.withLock { state -> [Sleeper] in
            state.now = state.now.advanced(by: duration)
            let due = state.sleepers.filter { $0.value.deadline <= state.now }
            for id in due.keys { state.sleepers[id] = nil }
            return Array(due.values)
        }
        for sleeper in due { sleeper.continuation.resume() }
    }

    /// Returns once a sleep due exactly `duration` from now waits on the clock (a condition,
    /// not a duration): the one the test means to cross, not another that happens to wait.
    /// Gives up after `testDeadline` of real time, so that a broken sync fails its test's
    /// expectations rather than hanging it.
    public func waitForSleeper(dueIn duration: Duration) async {
        _ = await eventually {
            state.withLock { state in state.sleepers.values.contains { $0.deadline == state.now.advanced(by: duration) } }
        }
    }

    /// Moves the clock on by `step` at a time until `condition` holds, for work that takes
    /// real time between the steps (another process answering, a task polling): the pause of
    /// ``eventually(isolation:timeout:_:)`` between steps paces it, and measures nothing. False
    /// if `condition` still does not hold after ``testDeadline`` of real time.
    ///
    /// ```swift
    /// let clock = ManualClock()
    /// let looks = LockedState(0)
    /// let poller = Task {  // as a file watcher looks once a second
    ///     while (try? await clock.sleep(for: .seconds(1))) != nil { looks.withLock { $0 += 1 } }
    /// }
    /// #expect(await clock.advance(by: .seconds(1), until: { looks.withLock { $0 } >= 3 }))
    /// poller.cancel()
    /// ```
    public func advance(by step: Duration, until condition: @Sendable () -> Bool) async -> Bool {
        await eventually {
            if condition() { return true }
            advance(by: step)
            return false
        }
    }
}
