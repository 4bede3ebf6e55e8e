import Foundation
import Testing
@testable import TrellisCore

@Suite("EventBus under concurrency")
struct EventBusStressTests {
    @Test("threads triggering while others watch and unwatch: no crash, no lost event for stable watchers")
    func crossThreadStress() {
        let bus = EventBus()
        let stableOwner = WatchOwner()
        let exactCount = AtomicCounter()
        let wildcardCount = AtomicCounter()
        let filteredCount = AtomicCounter()
        let source = WatchOwner()
        bus.watch("stress:tick", owner: stableOwner) { _, _ in exactCount.increment() }
        bus.watch("stress:*", owner: stableOwner) { _, event in
            if event.message == "stress:tick" { wildcardCount.increment() }
        }
        bus.watch("stress:tick", from: source, owner: stableOwner) { _, _ in filteredCount.increment() }

        let triggerThreads = 4
        let triggersPerThread = 5_000
        let churnThreads = 2
        let churnRounds = 2_000
        let group = DispatchGroup()

        for _ in 0..<triggerThreads {
            group.enter()
            Thread.detachNewThread {
                for index in 0..<triggersPerThread {
                    bus.trigger("stress:tick", .number(Double(index)), from: source)
                    bus.trigger("stress:other:\(index % 7)")
                }
                group.leave()
            }
        }
        for _ in 0..<churnThreads {
            group.enter()
            Thread.detachNewThread {
                for round in 0..<churnRounds {
                    let owner = WatchOwner()
                    let id = bus.watch("stress:tick", owner: owner) { _, _ in }
                    if round % 10 == 0 {
                        bus.watchOnMainActor("stress:*", owner: owner) { _, _ in }
                    } else {
                        bus.watch("stress:*", owner: owner) { _, _ in }
                    }
                    bus.watch("*", from: source, owner: owner) { _, _ in }
                    if round % 2 == 0 { bus.unwatch(id) }
                    if round % 3 == 0 { bus.unwatch(owner: owner) }
                    _ = bus.watchCount(owner: owner)
                    // Otherwise the owner simply dies here, ending its watches.
                }
                group.leave()
            }
        }
        group.wait()

        let expected = triggerThreads * triggersPerThread
        #expect(exactCount.count == expected)
        #expect(wildcardCount.count == expected)
        #expect(filteredCount.count == expected)
        #expect(bus.watchCount == 3)
    }
}
