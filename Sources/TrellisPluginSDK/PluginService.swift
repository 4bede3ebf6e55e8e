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
///     func stop(options: JSONValue) { bus.unwatch(owner: self) }
/// }
/// ```
public protocol PluginService: AnyObject, Sendable {
    /// The name the service is registered under; the plugin's manifest lists it in "services".
    static var name: String { get }
    /// Makes the service for one run, connected to `host`.
    init(host: TrellisHost)
    /// Starts the service; a thrown error is reported to the host (and fails an autostart).
    func start(options: JSONValue) throws
    /// Stops the service: undo what `start` did (watches, timers).
    func stop(options: JSONValue)
}
