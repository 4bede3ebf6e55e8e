import ArgumentParser
import Foundation
import TrellisCore

/// `trellis-bench bus`: trigger throughput of the event bus against Foundation's
/// `NotificationCenter` posting to the same number of block observers.
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
        var value = 0
    }

    @Option(parsing: .upToNextOption, help: "Watcher counts to measure.")
    var watchers: [Int] = [1, 100]

    func run() throws {
        for count in watchers {
            let trellis = try measureBus(watchers: count, owners: 1)
            let foundation = try measureNotificationCenter(observers: count)
            Report.figure("bus-\(count) trigger", trellis, "triggers/s")
            Report.figure("notificationcenter-\(count) post", foundation, "posts/s")
            Report.figure("bus-\(count) delivery", trellis * Double(count), "deliveries/s")
            Report.ratio("bus-\(count)", trellis / foundation)
            if count > 1 {
                // The worst case for the bus: every watcher has its own owner, so each
                // delivery pays a weak load of its owner.
                let spread = try measureBus(watchers: count, owners: count)
                Report.figure("bus-\(count) trigger, one owner per watcher", spread, "triggers/s")
                Report.ratio("bus-\(count)-owners", spread / foundation)
            }
        }
    }

    /// The bus with `watchers` synchronous watchers of one message, spread over `owners`
    /// owner objects (watchers of one owner registered one after the other).
    private func measureBus(watchers: Int, owners: Int) throws -> Double {
        let bus = EventBus()
        let ownerObjects = (0..<owners).map { _ in NSObject() }
        let tally = Tally()
        for index in 0..<watchers {
            bus.watch("bench:tick", owner: ownerObjects[index * owners / watchers]) { _ in tally.value += 1 }
        }
        bus.watch("bench:other", owner: ownerObjects[0]) { _ in tally.value -= 1 }
        // The owners must outlive the measurement (the bus holds them weakly).
        return try withExtendedLifetime(ownerObjects) {
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
