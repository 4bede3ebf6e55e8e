import TrellisCore

/// How much of the shell one plugin may take, per kind of call: VS Code has no such limits;
/// a plugin here cannot starve the window, whatever it floods.
///
/// A plugin over a rate is slowed down, not cut off: its connection stops taking its messages
/// until the budget allows the next (``PluginCallBudget``), so its socket fills and its own
/// calls block; nothing it sent is dropped, and the window sees its calls no faster than the
/// budget. Counts (watches) and sizes (names, log lines) are refused or cut, and said once.
/// The plugin process is sent the same numbers (``grantsValue``) and answers a call over a
/// count or a size with `TRELLIS_ERROR_INVALID_ARGUMENT` or `TRELLIS_ERROR_REFUSED` itself.
public struct PluginLimits: Sendable, Hashable {
    /// Messages of any kind from the plugin's process, a second (sustained, and at once): the
    /// shell's work per plugin has a ceiling, whatever the plugin sends.
    public var messagesPerSecond = 5_000.0
    public var messageBurst = 1_000.0
    /// Triggers and front-controller requests, a second (sustained, and at once).
    public var callsPerSecond = 500.0
    public var callBurst = 200.0
    /// Bytes of JSON data in triggers, requests and navigations, a second: a page of 1 MiB
    /// text five times a second is slowed to what a window can show.
    public var dataBytesPerSecond = 2.0 * 1024 * 1024
    public var dataBurstBytes = 4.0 * 1024 * 1024
    /// Navigations a second: each pushes a page.
    public var navigationsPerSecond = 5.0
    public var navigationBurst = 10.0
    /// Log lines a second.
    public var logLinesPerSecond = 50.0
    public var logBurst = 100.0
    /// The longest log line shown, in characters (the rest is cut).
    public var logLineLength = 1_000
    /// The most watches a plugin holds at once.
    public var watches = 256
    /// The longest event name, watch pattern, route or command, in bytes.
    public var nameBytes = 4_096

    public init() {}

    /// The limits as the plugin process reads them in its grants.
    var grantsValue: JSONValue {
        ["watches": .number(Double(watches)), "nameBytes": .number(Double(nameBytes)),
         "logLineLength": .number(Double(logLineLength))]
    }
}

/// A token bucket on a ``PluginClock``'s time: `burst` at once, refilled at `perSecond`.
struct PluginCallBudget: Sendable {
    let perSecond: Double
    let burst: Double
    private var tokens: Double
    private var refilled: Duration?

    init(perSecond: Double, burst: Double) {
        self.perSecond = perSecond
        self.burst = burst
        tokens = burst
    }

    /// Takes `amount` at `now`; returns how long to wait before acting (zero when the budget
    /// allows it at once). The debt is kept: waiting that long and acting is within budget.
    mutating func take(_ amount: Double = 1, at now: Duration) -> Duration {
        if let refilled {
            tokens = min(burst, tokens + Self.seconds(now - refilled) * perSecond)
        }
        refilled = now
        tokens -= amount
        return tokens >= 0 ? .zero : .seconds(-tokens / perSecond)
    }

    /// Whether `amount` can be taken at `now` without waiting; takes it if so.
    mutating func takeIfAvailable(_ amount: Double = 1, at now: Duration) -> Bool {
        if take(amount, at: now) == .zero { return true }
        tokens += amount
        return false
    }

    static func seconds(_ duration: Duration) -> Double {
        Double(duration.components.seconds) + Double(duration.components.attoseconds) / 1e18
    }
}
