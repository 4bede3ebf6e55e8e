import Foundation
import TrellisPluginSDK

/// The seed's `net_state` service as a plugin: counts network activity and tells the front
/// ends when the activity indicator should appear or disappear. It behaves exactly like
/// TrellisCore's built-in `NetworkActivityService`, which the app registers only when this
/// plugin did not register `net_state` (the plugin supersedes it).
///
/// Anything that starts network work triggers `network:on`, and `network:off` when done. The
/// service counts them and, whenever the visible state flips (count 0 → 1 or 1 → 0), triggers
/// `activity:changed` with `{"active": Bool, "count": Int}`. A stray `network:off` at zero is
/// logged as a warning and ignored. Stopping while active reports the indicator inactive.
// `counter` is only accessed while holding `lock`.
final class NetworkActivityService: PluginService, @unchecked Sendable {
    static let name = "net_state"
    static let networkOn = "network:on"
    static let networkOff = "network:off"
    static let activityChanged = "activity:changed"

    private let host: TrellisHost
    private let bus: PluginBus
    /// Recursive, and held while `activity:changed` is triggered: flips are published in the
    /// order they happen even when several threads report activity, and a watcher of
    /// `activity:changed` may trigger `network:*` itself.
    private let lock = NSRecursiveLock()
    private var counter = 0

    init(host: TrellisHost) {
        self.host = host
        self.bus = host.bus
    }

    func start(options: JSONValue) throws {
        lock.withLock { counter = 0 }
        bus.watch(Self.networkOn, owner: self) { service, _ in service.adjust(by: 1) }
        bus.watch(Self.networkOff, owner: self) { service, _ in service.adjust(by: -1) }
    }

    func stop(options: JSONValue) {
        lock.withLock {
            if counter > 0 {
                counter = 0
                publish()
            }
        }
    }

    private func adjust(by delta: Int) {
        lock.withLock {
            guard counter + delta >= 0 else {
                host.log(.warning, "'\(Self.networkOff)' without a matching '\(Self.networkOn)': ignored")
                return
            }
            let wasActive = counter > 0
            counter += delta
            if (counter > 0) != wasActive { publish() }
        }
    }

    /// Triggers `activity:changed` with the current state; called with `lock` held.
    private func publish() {
        bus.trigger(Self.activityChanged, ["active": .bool(counter > 0), "count": .number(Double(counter))])
    }
}
