import ArgumentParser
import Foundation
import TrellisCore

/// `trellis-bench bus`: trigger throughput of the event bus against Foundation's
/// `NotificationCenter` posting to the same number of block observers.
///
/// `bus-N` uses token watches (`bus.watch(_:from:_:) -> WatchToken`), the bus's counterpart
/// of `addObserver(forName:object:queue:using:)` and its token. The owner form, whose watches
/// end with an owner object the bus holds weakly and loads on each delivery, is reported
/// beside it: `bus-N-owner` (every watcher of one owner) and `bus-N-owners` (one owner each).
struct BusBenchmark: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "bus",
        abstract: "EventBus trigger throughput to 1 and 100 synchronous watchers vs NotificationCenter."
    )

    @Option(help: "Seconds per sample.")
    var seconds = 0.3

    @Option(help: "Samples per measurement; the median is reported.")
    var samples = 5

    /// Counts deliveries so neither side can skip its handlers.
    // Only touched from the benchmark's own thread: every handler here runs synchronously
    // inside `trigger` or `post`, on the thread that calls them.
    final class Tally: @unchecked Sendable {
        /// Unchecked: the run-time exclusivity check on a class property costs about as much
        /// as a whole delivery, and it is measuring apparatus, not the bus or the centre
        /// (both sides count with this same handler).
        @exclusivity(unchecked) var value = 0
    }

    /// An owner for the owner form of watch.
    final class Owner: Sendable {}

    @Option(parsing: .upToNextOption, help: "Watcher counts to measure.")
    var watchers: [Int] = [1, 100]

    func run() throws {
        for count in watchers {
            let trellis = try measureBus(watchers: count, owners: 0)
            let foundation = try measureNotificationCenter(observers: count)
            Report.figure("bus-\(count) trigger", trellis, "triggers/s")
            Report.figure("notificationcenter-\(count) post", foundation, "posts/s")
            Report.figure("bus-\(count) delivery", trellis * Double(count), "deliveries/s")
            Report.ratio("bus-\(count)", trellis / foundation)
            // Watches that end with an owner: one weak load of the owner per delivery...
            let owned = try measureBus(watchers: count, owners: 1)
            Report.figure("bus-\(count) trigger, one owner", owned, "triggers/s")
            Report.ratio("bus-\(count)-owner", owned / foundation)
            if count > 1 {
                // ...whether the watchers share one owner or each has its own.
                let spread = try measureBus(watchers: count, owners: count)
                Report.figure("bus-\(count) trigger, one owner per watcher", spread, "triggers/s")
                Report.ratio("bus-\(count)-owners", spread / foundation)
            }
        }
    }

    /// The bus with `watchers` synchronous watchers of one message, spread over `owners`
    /// owner objects (watchers of one owner registered one after the other), or token
    /// watches when `owners` is 0.
    private func measureBus(watchers: Int, owners: Int) throws -> Double {
        let bus = EventBus()
        let ownerObjects = (0..<owners).map { _ in Owner() }
        let tally = Tally()
        var tokens: [WatchToken] = []
        for index in 0..<watchers {
            if owners == 0 {
                bus.watch("bench:tick") { _ in tally.value += 1 }.store(in: &tokens)
            } else {
                bus.watch("bench:tick", owner: ownerObjects[index * owners / watchers]) { _, _ in tally.value += 1 }
            }
        }
        bus.watch("bench:other") { _ in tally.value -= 1 }.store(in: &tokens)
        // The owners and tokens must outlive the measurement (they end the watches).
        return try withExtendedLifetime((ownerObjects, tokens)) {
            try rate(tally: tally, deliveriesPerCall: watchers) {
                bus.trigger("bench:tick")
            }
        }
    }

    private func measureNotificationCenter(observers: Int) throws -> Double {
        let center = NotificationCenter()
        let name = Notification.Name("bench:tick")
        let tally = Tally()
        var tokens: [any NSObjectProtocol] = []
        for _ in 0..<observers {
            tokens.append(center.addObserver(forName: name, object: nil, queue: nil) { _ in tally.value += 1 })
        }
        tokens.append(center.addObserver(forName: Notification.Name("bench:other"), object: nil, queue: nil) { _ in
            tally.value -= 1
        })
        defer { tokens.forEach(center.removeObserver) }
        return try rate(tally: tally, deliveriesPerCall: observers) {
            center.post(name: name, object: nil)
        }
    }

    /// Calls per second: the median of `samples` timed batches, the batch sized during a
    /// warm-up to last about `seconds`. Fails if a batch did not deliver to every handler.
    private func rate(tally: Tally, deliveriesPerCall: Int, _ call: () -> Void) throws -> Double {
        var batch = 1_000
        while Report.time({ for _ in 0..<batch { call() } }) < seconds / 2 { batch *= 2 }
        var rates: [Double] = []
        for _ in 0..<samples {
            tally.value = 0
            let elapsed = Report.time { for _ in 0..<batch { call() } }
            guard tally.value == batch * deliveriesPerCall else {
                throw DeliveryMismatch(expected: batch * deliveriesPerCall, counted: tally.value)
            }
            rates.append(Double(batch) / elapsed)
        }
        return Report.median(rates)
    }

    /// A measured run delivered a different number of events than it should have.
    struct DeliveryMismatch: Error, CustomStringConvertible {
        let expected: Int
        let counted: Int
        var description: String { "bus benchmark: expected \(expected) deliveries, counted \(counted)" }
    }
}
