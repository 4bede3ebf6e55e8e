import TrellisPluginSDK

/// The seed's `net_state` service: counts network activity and tells the front ends when the
/// activity indicator should appear or disappear. It is Trellis's only implementation of
/// `net_state`; an app that wants the indicator loads this plugin.
///
/// Anything that starts network work triggers `network:on`, and `network:off` when done. The
/// service counts them and, whenever the visible state flips (count 0 → 1 or 1 → 0), triggers
/// `activity:changed` with `{"active": Bool, "count": Int}`. A stray `network:off` at zero is
/// logged as a warning and ignored. Stopping while active reports the indicator inactive.
///
/// Flips are triggered in the order they happen, and never while a lock is held: a watcher of
/// `activity:changed` may trigger `network:*` itself, or wait for another thread that does.
/// Flips made while another call is triggering one (on this thread or another) are triggered
/// by that call, in order, once its trigger returns.
final class NetworkActivityService: PluginService {
    static let name = "net_state"
    static let networkOn = "network:on"
    static let networkOff = "network:off"
    static let activityChanged = "activity:changed"

    private struct State: Sendable {
        var count = 0
        /// Flips not triggered yet, oldest first (`activity:changed`'s data).
        var unpublished: [JSONValue] = []
        /// Whether a call is triggering `unpublished` now.
        var isPublishing = false

        /// Adds `delta` to the count, recording a flip of the visible state; false (and no
        /// change) when the count would go below zero.
        mutating func adjust(by delta: Int) -> Bool {
            guard count + delta >= 0 else { return false }
            let wasActive = count > 0
            count += delta
            if (count > 0) != wasActive { unpublished.append(["active": .bool(count > 0), "count": .number(Double(count))]) }
            return true
        }
    }

    private let host: TrellisHost
    private let bus: PluginBus
    private let state = LockedState(State())

    init(host: TrellisHost) {
        self.host = host
        self.bus = host.bus
    }

    func start(options: JSONValue) throws {
        state.withLock { $0.count = 0 }
        bus.watch(Self.networkOn, owner: self) { service, _ in service.adjust(by: 1) }
        bus.watch(Self.networkOff, owner: self) { service, _ in service.adjust(by: -1) }
    }

    func stop(options: JSONValue) {
        state.withLock { state in _ = state.adjust(by: -state.count) }
        publish()
    }

    private func adjust(by delta: Int) {
        guard state.withLock({ $0.adjust(by: delta) }) else {
            host.log(.warning, "'\(Self.networkOff)' without a matching '\(Self.networkOn)': ignored")
            return
        }
        publish()
    }

    /// Triggers the unpublished flips in order, outside the lock, unless a call is already
    /// doing so: that call then triggers them too, after its current trigger returns.
    private func publish() {
        let claimed = state.withLock { state in
            guard !state.isPublishing, !state.unpublished.isEmpty else { return false }
            state.isPublishing = true
            return true
        }
        guard claimed else { return }
        while let flip = state.withLock({ state -> JSONValue? in
            guard !state.unpublished.isEmpty else {
                state.isPublishing = false
                return nil
            }
            return state.unpublished.removeFirst()
        }) {
            bus.trigger(Self.activityChanged, flip)
        }
    }
}
