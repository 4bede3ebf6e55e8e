import Dispatch
import Foundation
import TrellisPluginSDK

/// The seed's Location service, as a stub for machines with no positioning hardware: started
/// with `LocationOptions`, it triggers `location:update` with
/// `{"latitude", "longitude", "accuracy", "timestamp"}` (timestamp in seconds since 1970) at
/// once and then every `interval` seconds, for a fixed position or for each point of a track in
/// turn (starting over after the last). A track that cannot be read or parsed triggers
/// `location:error` with `{"reason", "file"}` instead, and the service stays idle until stopped.
///
/// Updates come from a DispatchSource timer on the service's private queue; watchers of
/// `location:update` run on that queue. After `stop(options:)` returns, no update is triggered.
// `timer`, `points` and `next` are only accessed on `queue`.
final class LocationService: PluginService, @unchecked Sendable {
    static let name = "location"
    static let update = "location:update"
    static let error = "location:error"

    private let bus: PluginBus
    private let queue = DispatchQueue(label: "trellis.plugin.location")
    private let onQueue = DispatchSpecificKey<Bool>()
    private var timer: (any DispatchSourceTimer)?
    private var points: [LocationPoint] = []
    private var next = 0

    init(host: TrellisHost) {
        bus = host.bus
        queue.setSpecific(key: onQueue, value: true)
    }

    func start(options: JSONValue) throws {
        let options = try LocationOptions(options)
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
                return
            }
        }
        onQueueSync {
            self.points = points
            next = 0
            let timer = DispatchSource.makeTimerSource(queue: queue)
            timer.schedule(deadline: .now(), repeating: options.interval)
            timer.setEventHandler { [weak self] in self?.tick() }
            self.timer = timer
            timer.resume()
        }
    }

    func stop(options: JSONValue) {
        onQueueSync {
            timer?.cancel()
            timer = nil
            points = []
        }
    }

    /// Triggers the next update; runs on `queue`.
    private func tick() {
        guard timer != nil, !points.isEmpty else { return }
        let point = points[next]
        next = (next + 1) % points.count
        bus.trigger(Self.update, point.update(at: Date()))
    }

    /// Runs `body` on `queue`, waiting for it; directly when already there (a watcher of
    /// `location:update` that stops the service).
    private func onQueueSync(_ body: () -> Void) {
        if DispatchQueue.getSpecific(key: onQueue) == true { body() } else { queue.sync(execute: body) }
    }
}
