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

    func run() throws {
        for watchers in [1, 100] {
            let trellis = try measureBus(watchers: watchers)
            let foundation = try measureNotificationCenter(observers: watchers)
            Report.figure("bus-\(watchers) trigger", trellis, "triggers/s")
            Report.figure("notificationcenter-\(watchers) post", foundation, "posts/s")
            Report.figure("bus-\(watchers) delivery", trellis * Double(watchers), "deliveries/s")
            Report.ratio("bus-\(watchers)", trellis / foundation)
        }
    }

    private func measureBus(watchers: Int) throws -> Double {
        let bus = EventBus()
        let owner = NSObject()
        let tally = Tally()
        for _ in 0..<watchers {
            bus.watch("bench:tick", owner: owner) { _ in tally.value += 1 }
        }
        bus.watch("bench:other", owner: owner) { _ in tally.value -= 1 }
        return try rate(tally: tally, deliveriesPerCall: watchers) {
            bus.trigger("bench:tick")
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
