/// The time the plugin host keeps: deadlines of plugin calls, the back-off of restarts, call
/// budgets. Any `Clock` counting in `Duration` drives it — the system's continuous clock in an
/// app, a test clock in tests, which crosses a 5 s deadline in microseconds
/// (TrellisTesting's `ManualClock.advance(by:)`, as NIO's `EmbeddedEventLoop.advanceTime(by:)`).
///
/// ```swift
/// let host = PluginHost(bus: bus, services: services, searchPaths: paths, settings: settings,
///                       clock: PluginClock(ContinuousClock()), navigate: { _ in }, handleRequest: { _, _ in })
/// ```
///
/// Instants are durations since the clock was wrapped, so that a deadline is computed once,
/// when a call is sent, and holds whenever the task that waits for it starts: a test that
/// advances its clock before that task ran still sees the deadline pass.
public struct PluginClock: Sendable {
    private let elapsed: @Sendable () -> Duration
    private let sleeper: @Sendable (Duration) async throws -> Void

    /// Wraps `clock`; its time now is instant zero.
    public init<C: Clock>(_ clock: C) where C.Duration == Duration {
        let origin = clock.now
        elapsed = { origin.duration(to: clock.now) }
        sleeper = { instant in try await clock.sleep(until: origin.advanced(by: instant), tolerance: nil) }
    }

    /// The system's continuous clock.
    public static var continuous: PluginClock { PluginClock(ContinuousClock()) }

    /// Now, as the time since the clock was wrapped.
    public var now: Duration { elapsed() }

    /// Returns once `instant` (a time since the clock was wrapped) has come, at once if it has;
    /// throws `CancellationError` when the task is cancelled first.
    public func sleep(until instant: Duration) async throws {
        guard now < instant else { return }
        try await sleeper(instant)
    }

    /// Returns after `duration` from now.
    public func sleep(for duration: Duration) async throws {
        try await sleep(until: now + duration)
    }
}
