/// A service provided by a plugin: the plugin-side counterpart of TrellisCore's `Service`
/// (iStructure's `startWithOptions:` / `stopWithOptions:`), registered under `name` and started
/// and stopped by the host's service registry.
///
/// The SDK makes a fresh instance with `init(host:)` each time the service starts and drops it
/// after `stop(options:)`.
///
/// ```swift
/// final class Heartbeat: PluginService {
///     static let name = "heartbeat"
///     private let bus: PluginBus
///     init(host: TrellisHost) { bus = host.bus }
///     func start(options: JSONValue) throws {
///         bus.watch("app:tick", owner: self) { [bus] _ in bus.trigger("heartbeat:beat") }
///     }
///     func stop(options: JSONValue) {}   // the SDK then removes the watches it owns
/// }
/// ```
public protocol PluginService: AnyObject, Sendable {
    /// The name the service is registered under; the plugin's manifest lists it in "services".
    ///
    /// ```swift
    /// final class Clock: PluginService {
    ///     static let name = "clock"   // plugin.json: "services": ["clock"]
    ///     init(host: TrellisHost) {}
    ///     func start(options: JSONValue) throws {}
    ///     func stop(options: JSONValue) {}
    /// }
    /// ```
    static var name: String { get }
    /// Makes the service for one run, connected to `host`: keep what `start` needs, start nothing.
    ///
    /// ```swift
    /// final class Announcer: PluginService {
    ///     static let name = "announcer"
    ///     private let host: TrellisHost
    ///     init(host: TrellisHost) { self.host = host }
    ///     func start(options: JSONValue) throws { host.log(.info, "announcing") }
    ///     func stop(options: JSONValue) {}
    /// }
    /// ```
    init(host: TrellisHost)
    /// Starts the service; a thrown error is reported to the host (and fails an autostart).
    ///
    /// ```swift
    /// struct NoInterval: Error, CustomStringConvertible {
    ///     var description: String { "options need \"seconds\", a whole number above 0" }
    /// }
    /// final class Ticker: PluginService {
    ///     static let name = "ticker"
    ///     private let bus: PluginBus
    ///     init(host: TrellisHost) { bus = host.bus }
    ///     func start(options: JSONValue) throws {   // plugin.json: "autostart": {"ticker": {"seconds": 5}}
    ///         guard let seconds = options["seconds"]?.intValue, seconds > 0 else { throw NoInterval() }
    ///         bus.trigger("ticker:started", ["seconds": .number(Double(seconds))])
    ///     }
    ///     func stop(options: JSONValue) {}
    /// }
    /// ```
    func start(options: JSONValue) throws
    /// Stops the service: undo what `start` did (timers, files). The watches the service owns
    /// are removed by the SDK right after.
    ///
    /// ```swift
    /// final class Recorder: PluginService {
    ///     static let name = "recorder"
    ///     private let host: TrellisHost
    ///     private let points = LockedState<[String]>([])
    ///     init(host: TrellisHost) { self.host = host }
    ///     func start(options: JSONValue) throws {
    ///         host.bus.watch("location:changed", owner: self) { recorder, event in
    ///             recorder.points.withLock { $0.append(event.data.jsonString) }
    ///         }
    ///     }
    ///     func stop(options: JSONValue) {
    ///         let count = points.withLock(\.count)
    ///         host.log(.info, "recorded \(count) points")
    ///     }
    /// }
    /// ```
    func stop(options: JSONValue)
}
