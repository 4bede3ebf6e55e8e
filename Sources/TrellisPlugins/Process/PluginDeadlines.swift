import TrellisCore

/// How long a plugin in a process of its own may take before the host kills it (SIGKILL) and
/// counts it as crashed: VS Code's "unresponsive extension host", per plugin.
///
/// ```swift
/// let host = PluginHost(bus: bus, services: services, searchPaths: paths, settings: settings,
///                       deadlines: PluginDeadlines(event: .seconds(10)),
///                       navigate: { _ in }, handleRequest: { _, _ in })
/// ```
public struct PluginDeadlines: Sendable, Hashable {
    /// The plugin's entry, and each service start (default 5 s).
    public var start: Duration
    /// Each service stop (default 2 s).
    public var stop: Duration
    /// Each event delivered to one of the plugin's watches, from when the plugin could begin
    /// it (its previous event or call done) to its handler's return (default 3 s).
    public var event: Duration

    public init(start: Duration = .seconds(5), stop: Duration = .seconds(2), event: Duration = .seconds(3)) {
        self.start = start
        self.stop = stop
        self.event = event
    }

    /// `duration` for a `DispatchTime` deadline, in seconds.
    static func seconds(_ duration: Duration) -> Double {
        Double(duration.components.seconds) + Double(duration.components.attoseconds) / 1e18
    }

    /// `duration` as people read it: "3 s", "0.5 s".
    static func text(_ duration: Duration) -> String {
        let seconds = seconds(duration)
        return seconds == seconds.rounded() ? "\(Int(seconds)) s" : "\(seconds) s"
    }
}
