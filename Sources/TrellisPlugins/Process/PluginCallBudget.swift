import TrellisCore

/// How fast a plugin in a process of its own may trigger, navigate and request: a token
/// bucket of ``burst`` calls refilled at ``perSecond``. A plugin over it is slowed down, not
/// cut off: the shell stops reading its socket until the budget allows the next call, so the
/// plugin's own calls block once the socket's buffer is full. Nothing is dropped, and a flood
/// reaches the bus — and the main-thread watchers behind it — no faster than the budget.
struct PluginCallBudget: Sendable {
    /// Calls per second, sustained.
    static let perSecond = 500.0
    /// Calls allowed at once after a quiet moment.
    static let burst = 200.0

    private var tokens = Self.burst
    private var refilled = ContinuousClock.now

    /// Takes one call from the budget at `now`; returns how long to wait before making it
    /// (zero when the budget allows it at once).
    mutating func take(at now: ContinuousClock.Instant = .now) -> Duration {
        let elapsed = now - refilled
        refilled = now
        tokens = min(Self.burst, tokens + PluginDeadlines.seconds(elapsed) * Self.perSecond)
        tokens -= 1
        return tokens >= 0 ? .zero : .seconds(-tokens / Self.perSecond)
    }
}
