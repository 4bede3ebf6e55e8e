import OrderedCollections
import Logging

/// Services by name: iStructure's `$register`, `$start` and `$stop`, without class-level
/// singletons.
///
/// ```swift
/// let registry = ServiceRegistry(bus: bus)
/// try registry.register("greeter") { GreeterService() }   // GreeterService: see ``Service``
/// try await registry.start("greeter")
/// try await registry.start("greeter")   // no-op: already running
/// try await registry.stop("greeter")    // its watches end
/// ```
///
/// A registration holds a factory; `start` makes one instance, which the registry keeps until
/// `stop`. Service code (`start`, `stop`, the factory) runs outside the registry's lock, so a
/// service may start other services or trigger messages whose watchers query the registry.
/// Starting a service that another thread is stopping, or stopping one that another thread
/// is starting, is refused with ``ServiceError/busy(name:transition:)``. `start` and `stop` return
/// once the service has started or stopped, which for a plugin's service is when its process
/// answered.
public final class ServiceRegistry: Sendable {
    private enum State {
        case stopped
        case starting
        case running(any Service)
        case stopping
    }

    private struct Entry {
        let owner: String
        let factory: @Sendable () -> any Service
        var state: State
    }

    private let bus: EventBus
    private let logger: Logger
    private let entries = LockedState<OrderedDictionary<String, Entry>>([:])

    /// Creates an empty registry whose services are started with `bus`.
    public init(bus: EventBus, logger: Logger = Logger(trellis: "trellis.services")) {
        self.bus = bus
        self.logger = logger
    }

    /// Registers a service under `name`. `owner` says who provides it (`host`, or a plugin id).
    /// - Throws: ``ServiceError/duplicate(name:existingOwner:newOwner:)`` if the name is taken.
    public func register(
        _ name: String, owner: String = "host", _ factory: @escaping @Sendable () -> any Service
    ) throws {
        try entries.withLock { entries throws(ServiceError) in
            if let existing = entries[name] {
                throw .duplicate(name: name, existingOwner: existing.owner, newOwner: owner)
            }
            entries[name] = Entry(owner: owner, factory: factory, state: .stopped)
        }
        logger.debug("registered service '\(name)' from '\(owner)'")
    }

    /// Removes the service `name` registered by `owner`, when it is stopped: what a plugin
    /// whose load failed after it registered its services gives back, so that its next load can
    /// register them again. Returns whether it was removed.
    @discardableResult
    public func unregister(_ name: String, owner: String) -> Bool {
        entries.withLock { entries in
            guard let entry = entries[name], entry.owner == owner, case .stopped = entry.state else { return false }
            entries[name] = nil
            return true
        }
    }

    /// Starts the service `name` with `options`; a service already running (or starting) is
    /// left alone.
    /// - Throws: ``ServiceError/unknown(_:)``; ``ServiceError/startFailed(name:owner:underlying:)``
    ///   if the service's `start` throws (it stays stopped, and any watch it made is removed);
    ///   ``ServiceError/busy(name:transition:)`` while it is being stopped.
    public func start(_ name: String, options: JSONValue = .null) async throws {
        let claimed = try entries.withLock { entries throws(ServiceError) -> Entry? in
            guard let entry = entries[name] else { throw .unknown(name) }
            switch entry.state {
            case .running, .starting: return nil
            case .stopping: throw .busy(name: name, transition: "stopping")
            case .stopped:
                entries[name]?.state = .starting
                return entry
            }
        }
        guard let claimed else {
            logger.debug("service '\(name)' is already running")
            return
        }
        let service = claimed.factory()
        do {
            try await service.start(options: options, bus: bus)
        } catch {
            bus.unwatch(owner: service)
            setState(.stopped, of: name)
            let failure = ServiceError.startFailed(name: name, owner: claimed.owner, underlying: error)
            logger.error("\(failure)")
            throw failure
        }
        setState(.running(service), of: name)
        logger.info("started service '\(name)'")
    }

    /// Stops the service `name` with `options` and removes every watch it owns; a stopped
    /// service is left alone.
    /// - Throws: ``ServiceError/unknown(_:)``; ``ServiceError/busy(name:transition:)`` while it
    ///   is being started.
    public func stop(_ name: String, options: JSONValue = .null) async throws {
        let running = try entries.withLock { entries throws(ServiceError) -> (any Service)? in
            guard let entry = entries[name] else { throw .unknown(name) }
            switch entry.state {
            case .stopped, .stopping: return nil
            case .starting: throw .busy(name: name, transition: "starting")
            case .running(let service):
                entries[name]?.state = .stopping
                return service
            }
        }
        guard let running else {
            logger.debug("service '\(name)' is not running")
            return
        }
        await running.stop(options: options)
        bus.unwatch(owner: running)
        setState(.stopped, of: name)
        logger.info("stopped service '\(name)'")
    }

    /// Whether the service `name` is started (false for an unknown name).
    public func isRunning(_ name: String) -> Bool {
        entries.withLock { entries in
            if case .running = entries[name]?.state { return true }
            return false
        }
    }

    /// Every registered service, in registration order.
    public var services: [ServiceInfo] {
        entries.withLock { entries in
            entries.map { name, entry in
                let running = if case .running = entry.state { true } else { false }
                return ServiceInfo(name: name, owner: entry.owner, isRunning: running)
            }
        }
    }

    /// Completes a transition its caller claimed (only the claiming call leaves
    /// `.starting` or `.stopping`, so the entry is still there and still in that state).
    private func setState(_ state: State, of name: String) {
        entries.withLock { $0[name]?.state = state }
    }
}
