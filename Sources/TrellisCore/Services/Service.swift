/// A part of the shell that works semi-independently: iStructure's service (a location
/// service, the network-activity indicator), started and stopped by name through a
/// ``ServiceRegistry``.
///
/// A service talks to the rest of the shell only through the bus it is given in `start`, so
/// it can later move into a plugin unchanged. Watches it registers with itself as owner end
/// when the registry stops it.
///
/// `start` and `stop` are asynchronous because a service may live in another process (a
/// plugin's, whose answer comes over its socket); a service of the app's own implements them as
/// plain functions, which satisfy the requirements:
///
/// ```swift
/// final class GreeterService: Service {
///     func start(options: JSONValue, bus: EventBus) throws {
///         bus.watch("greeter:ping", owner: self) { _, event in
///             bus.trigger("greeter:pong", ["ping": event.data])
///         }
///     }
///     func stop(options: JSONValue) {}
/// }
/// try registry.register("greeter") { GreeterService() }
/// try await registry.start("greeter")
/// ```
public protocol Service: AnyObject, Sendable {
    /// Starts the service: watch messages, open resources. Throwing leaves it stopped.
    func start(options: JSONValue, bus: EventBus) async throws
    /// Stops the service: close resources. Its watches are removed by the registry afterwards.
    func stop(options: JSONValue) async
}

/// What the registry knows about one registered service.
public struct ServiceInfo: Sendable, Hashable {
    /// The name it is started and stopped by (for example `net_state`).
    public let name: String
    /// Who registered it: `host` for the shell itself, a plugin's id otherwise.
    public let owner: String
    /// Whether it is currently started.
    public let isRunning: Bool

    /// Describes a registered service.
    public init(name: String, owner: String, isRunning: Bool) {
        self.name = name
        self.owner = owner
        self.isRunning = isRunning
    }
}

/// Errors of the service registry; each names the service at fault.
public enum ServiceError: Error, CustomStringConvertible {
    /// A service of this name is already registered, by `existingOwner`.
    case duplicate(name: String, existingOwner: String, newOwner: String)
    /// No service of this name is registered.
    case unknown(String)
    /// The service's `start` threw; it stays stopped.
    case startFailed(name: String, owner: String, underlying: any Error)
    /// The service is being started or stopped (by another task, or a service it starts); the
    /// opposite request was refused rather than silently reordered. Retry once that transition
    /// is over.
    case busy(name: String, transition: String)

    public var description: String {
        switch self {
        case .duplicate(let name, let existingOwner, let newOwner):
            return "service '\(name)' is already registered by '\(existingOwner)'; '\(newOwner)' cannot register it again"
        case .unknown(let name):
            return "no service named '\(name)' is registered"
        case .startFailed(let name, let owner, let underlying):
            return "service '\(name)' (registered by '\(owner)') failed to start: \(underlying)"
        case .busy(let name, let transition):
            return "service '\(name)' is \(transition); try again when that is done"
        }
    }
}
