import Foundation
import Testing
@testable import TrellisCore
import TrellisTesting

/// The watcher lists a trigger borrows without a retain (reader slots and retired lists).
@Suite("EventBus borrowed watcher lists")
struct EventBusSnapshotTests {
    /// Something a handler captures, to see when the bus lets go of the handler.
    final class Captured: Sendable {}

    @Test("a watch ended during a delivery releases its handler by the time trigger returns")
    func retiredListsAreFreedAfterTheTrigger() {
        let bus = EventBus()
        var captured: Captured? = Captured()
        weak let weakCaptured = captured
        let doomed = LockedState<WatchToken?>(nil)
        let first = bus.watch("go") { _ in doomed.withLock { $0 = nil } }
        doomed.withLock { [captured] in $0 = bus.watch("go") { _ in withExtendedLifetime(captured) {} } }
        captured = nil
        #expect(weakCaptured != nil, "the second watch's handler holds it")
        bus.trigger("go")
        #expect(weakCaptured == nil, "the ended watch's handler (and what it captured) is gone once trigger returns")
        #expect(bus.watchCount == 1)
        withExtendedLifetime(first) {}
    }

    @Test("re-entrant triggers deeper than the reader slots still deliver every event")
    func deeperThanTheSlots() {
        let bus = EventBus()
        let depth = AtomicCounter()
        let token = bus.watch("down") { event in
            depth.increment()
            let level = event.data.intValue ?? 0
            if level < 40 { bus.trigger("down", .number(Double(level + 1))) }
        }
        bus.trigger("down", 0)
        #expect(depth.count == 41)
        withExtendedLifetime(token) {}
    }

    @Test("watching and unwatching the message being delivered, at every depth, never breaks the list in use")
    func churnDuringNestedDelivery() {
        let bus = EventBus()
        let recorder = Trace()
        let added = LockedState<[WatchToken]>([])
        let token = bus.watch("tick") { event in
            let level = event.data.intValue ?? 0
            recorder.record("stable \(level)")
            // Each level adds a watch of the same name (not delivered this time) and drops
            // the one the previous level added.
            added.withLock { tokens in
                if !tokens.isEmpty { tokens.removeFirst() }
                tokens.append(bus.watch("tick") { event in recorder.record("added saw \(event.data.intValue ?? -1)") })
            }
            if level < 20 { bus.trigger("tick", .number(Double(level + 1))) }
        }
        bus.trigger("tick", 0)
        let stable = recorder.all.filter { $0.hasPrefix("stable") }
        #expect(stable == (0...20).map { "stable \($0)" })
        #expect(bus.watchCount == 2)
        withExtendedLifetime(token) {}
    }

    @Test("triggering a name nobody watches, with wildcards present, does not grow the watch table")
    func unwatchedNames() {
        let bus = EventBus()
        let counter = AtomicCounter()
        let token = bus.watch("net:*") { _ in counter.increment() }
        for index in 0..<10_000 { bus.trigger("record:\(index)") }
        bus.trigger("net:on")
        #expect(counter.count == 1)
        #expect(bus.watchCount == 1)
        withExtendedLifetime(token) {}
    }
}
