import TrellisCore
import TrellisTesting

/// A clock that moves only when the test says so (NIO's `EmbeddedEventLoop.advanceTime(by:)`):
/// a timeout or a back-off of the sync is crossed in no real time.
///
/// ```swift
/// let clock = ManualClock()
/// let sync = BasicSync(settings: settings, clock: clock)
/// async let answer = sync.send(request)          // waits on the clock
/// await clock.waitForSleeper(dueIn: .seconds(30))
/// clock.advance(by: .seconds(30))               // the timeout passes, at once
/// ```
final class ManualClock: Clock, Sendable {
    struct Instant: InstantProtocol {
        let offset: Duration
        func advanced(by duration: Duration) -> Instant { Instant(offset: offset + duration) }
        func duration(to other: Instant) -> Duration { other.offset - offset }
        static func < (lhs: Instant, rhs: Instant) -> Bool { lhs.offset < rhs.offset }
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

    var now: Instant { state.withLock { $0.now } }
    var minimumResolution: Duration { .nanoseconds(1) }

    func sleep(until deadline: Instant, tolerance: Duration?) async throws {
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
    func advance(by duration: Duration) {
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
    func waitForSleeper(dueIn duration: Duration) async {
        let giveUp = ContinuousClock.now + testDeadline
        while !state.withLock({ state in
            state.sleepers.values.contains { $0.deadline == state.now.advanced(by: duration) }
        }), ContinuousClock.now < giveUp {
            try? await Task.sleep(for: .milliseconds(1))
        }
    }
}
