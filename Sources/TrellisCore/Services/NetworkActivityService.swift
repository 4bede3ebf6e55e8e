import Foundation
import Logging

/// The seed's `net_state` service: counts network activity and tells the front ends when
/// the activity indicator should appear or disappear.
///
/// Anything that starts network work triggers `network:on`, and `network:off` when done. The
/// service counts them and, whenever the visible state flips (count 0 → 1 or 1 → 0), triggers
/// `activity:changed` with `{"active": Bool, "count": Int}`. Front ends watch that message to
/// show a spinner; the service knows no front end, only the bus. A stray `network:off` at zero
/// is logged as a warning and ignored.
///
/// ```swift
/// try registry.register(NetworkActivityService.name) { NetworkActivityService() }
/// try registry.start(NetworkActivityService.name)
/// bus.watchOnMainActor("activity:changed", owner: window) { window, event in
///     window.showSpinner(event.data["active"]?.boolValue ?? false)
/// }
/// bus.trigger("network:on")    // → activity:changed {"active": true, "count": 1}
/// bus.trigger("network:off")   // → activity:changed {"active": false, "count": 0}
/// ```
// `count` and `bus` are only accessed while holding `lock`.
public final class NetworkActivityService: Service, @unchecked Sendable {
    /// The name the service is registered under, as in the seed.
    public static let name = "net_state"
    /// Watched: one more piece of network work has begun.
    public static let networkOn = "network:on"
    /// Watched: one piece of network work has ended.
    public static let networkOff = "network:off"
    /// Triggered when the indicator should appear or disappear.
    public static let activityChanged = "activity:changed"

    private let logger: Logger
    /// Recursive, and held while `activity:changed` is triggered: flips are published in the
    /// order they happen even when several threads report activity, and a watcher of
    /// `activity:changed` may read `count` or trigger `network:*` itself. Such a watcher must
    /// not block on another thread that reports network activity.
    private let lock = NSRecursiveLock()
    private var counter = 0
    private var bus: EventBus?

    /// Creates a stopped service.
    public init(logger: Logger = Logger(trellis: "trellis.services.net_state")) {
        self.logger = logger
    }

    /// The number of pieces of network work in progress.
    public var count: Int { lock.withLock { counter } }

    /// Whether the activity indicator should be visible.
    public var isActive: Bool { count > 0 }

    /// Starts counting `network:on` and `network:off` on `bus`, from zero.
    public func start(options: JSONValue, bus: EventBus) throws {
        lock.withLock {
            counter = 0
            self.bus = bus
        }
        bus.watch(Self.networkOn, owner: self) { service, _ in service.adjust(by: 1) }
        bus.watch(Self.networkOff, owner: self) { service, _ in service.adjust(by: -1) }
    }

    /// Stops counting; the registry then removes the watches. If the indicator was showing,
    /// `activity:changed` reports it inactive, so no front end keeps a stale spinner.
    public func stop(options: JSONValue) {
        lock.withLock {
            if counter > 0 {
                counter = 0
                publish()
            }
            bus = nil
        }
    }

    private func adjust(by delta: Int) {
        lock.withLock {
            guard counter + delta >= 0 else {
                logger.warning("'\(Self.networkOff)' without a matching '\(Self.networkOn)': ignored")
                return
            }
            let wasActive = counter > 0
            counter += delta
            if (counter > 0) != wasActive { publish() }
        }
    }

    /// Triggers `activity:changed` with the current state; called with `lock` held.
    private func publish() {
        bus?.trigger(Self.activityChanged, ["active": .bool(counter > 0), "count": .number(Double(counter))])
    }
}
