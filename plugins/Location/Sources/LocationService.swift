import Dispatch
import Foundation
import TrellisPluginSDK

/// The seed's Location service, as a stub for machines with no positioning hardware: started
/// with `LocationOptions`, it triggers `location:update` with
/// `{"latitude", "longitude", "accuracy", "timestamp"}` (timestamp in seconds since 1970) at
/// once and then every `interval` seconds, for a fixed position or for each point of a track in
/// turn (starting over after the last). A track that cannot be read or parsed triggers
/// `location:error` with `{"reason", "file"}` instead, and the service stays idle until stopped.
/// Each update also sets the plugin's status item, `position`, to "55.75222, 37.61556 ±12 m"
/// (`location:status`); a track that fails sets it to "unavailable: …", and stopping hides it.
///
/// Updates come from a DispatchSource timer on the service's private queue; watchers of
/// `location:update` run on that queue, with no lock held, so they may stop the service or wait
/// for a thread that does. After `stop(options:)` returns, at most the one update already under
/// way is still delivered (as with any DispatchSource's cancel).
final class LocationService: PluginService {
    static let name = "location"
    static let update = "location:update"
    static let error = "location:error"
    /// Sets the plugin's status item "position" (its manifest's `statusItems`).
    static let status = "location:status"

    /// A started timer and the points it walks through.
    // A DispatchSource is not marked Sendable, but libdispatch makes its methods thread-safe;
    // this one is resumed once, by `start`, and cancelled once, by whoever takes it out of `run`.
    private struct Run: @unchecked Sendable {
        let timer: any DispatchSourceTimer
        let points: [LocationPoint]
        var next = 0
    }

    private let bus: PluginBus
    private let host: TrellisHost
    private let queue = DispatchQueue(label: "trellis.plugin.location")
    private let run = LockedState<Run?>(nil)

    /// The options of the last start, while running: a change of the settings restarts
    /// the service with them (``LocationSettings``).
    private let started = LockedState<JSONValue?>(nil)

    init(host: TrellisHost) {
        self.host = host
        bus = host.bus
        bus.watch("location:settings", owner: self) { [weak self] event in
            let changed = event.data["changed"]?.arrayValue?.compactMap(\.stringValue) ?? []
            guard !changed.allSatisfy({ $0 == "decimals" }) else { return }  // shown at the next update
            self?.restart()
        }
    }

    /// The plugin's setting "decimals" (digits after the point), read at each update: a change
    /// on the Preferences page shows at the next one.
    static func decimals(_ host: TrellisHost) -> Int {
        min(8, max(0, host.settings["decimals"]?.intValue ?? 5))
    }

    func start(options: JSONValue) throws {
        started.withLock { $0 = options }
        guard LocationSettings.choosesSource(host.settings) else {
            try begin(try LocationSettings.options(started: options, settings: host.settings))
            return
        }
        // A source chosen on the Settings page that cannot be used does not fail the start (the
        // plugin starts again when a granted setting changes): it says why, as after a change.
        restart()
    }

    /// Starts again with the settings of now, after a change on the Settings page; a setting
    /// the service cannot use is reported as `location:error` and the status item says why.
    private func restart() {
        guard let options = started.withLock({ $0 }) else { return }
        do {
            try begin(try LocationSettings.options(started: options, settings: host.settings))
        } catch {
            run.withLock { $0.take() }?.timer.cancel()
            bus.trigger(Self.error, ["reason": .string(error.description)])
            bus.trigger(Self.status, ["item": "position", "text": .string("unavailable: \(error.description)")])
        }
    }

    /// Starts the timer for `options`, replacing any running one.
    private func begin(_ options: LocationOptions) throws(LocationOptionsError) {
        let points: [LocationPoint]
        switch options.source {
        case .fixed(let point):
            points = [point]
        case .track(let path):
            switch LocationTrack.load(path: path) {
            case .success(let track):
                points = track
            case .failure(let failure):
                bus.trigger(Self.error, ["reason": .string(failure.description), "file": .string(path)])
                bus.trigger(Self.status, ["item": "position", "text": .string("unavailable: \(failure.description)")])
                return
            }
        }
        let timer = DispatchSource.makeTimerSource(queue: queue)
        timer.schedule(deadline: .now(), repeating: options.interval)
        timer.setEventHandler { [weak self] in self?.tick() }
        let previous = run.withLock { run in
            defer { run = Run(timer: timer, points: points) }
            return run
        }
        previous?.timer.cancel()
        timer.resume()
    }

    func stop(options: JSONValue) {
        started.withLock { $0 = nil }
        run.withLock { $0.take() }?.timer.cancel()
        bus.trigger(Self.status, ["item": "position", "text": nil])
    }

    /// Triggers the next update, outside the lock; runs on `queue`.
    private func tick() {
        let point = run.withLock { run -> LocationPoint? in
            guard let current = run, !current.points.isEmpty else { return nil }
            run?.next = (current.next + 1) % current.points.count
            return current.points[current.next]
        }
        guard let point else { return }
        bus.trigger(Self.update, point.update(at: Date()))
        bus.trigger(Self.status, ["item": "position", "text": .string(point.statusText(decimals: Self.decimals(host)))])
    }
}
