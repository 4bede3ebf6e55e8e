import Foundation
import Testing
@testable import TrellisCore
import TrellisTesting

/// The watcher list a trigger takes under the lock and delivers from after it.
@Suite("EventBus watcher lists taken by a trigger")
struct EventBusSnapshotTests {
    /// Something a handler captures, to see when the bus lets go of the handler.
    final class Captured: Sendable {}

    @Test("a watch ended during a delivery releases its handler by the time trigger returns")
    func endedWatchIsReleasedAfterTheTrigger() {
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

    @Test("re-entrant triggers 40 levels deep still deliver every event")
    func deepReentrantTriggers() {
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

@Suite("EventBus releases handlers outside its lock")
struct EventBusReleaseTests {
    /// Captured by a handler; calls back into the bus when deallocated, which would deadlock
    /// if the bus released the handler while holding its lock.
    final class CallsBackOnDeinit: Sendable {
        let bus: EventBus
        let recorder: Trace
        let name: String

        init(bus: EventBus, recorder: Trace, name: String) {
            self.bus = bus
            self.recorder = recorder
            self.name = name
        }

        deinit {
            bus.trigger("released", ["name": .string(name)])
            recorder.record("\(name) released, \(bus.watchCount) watches")
        }
    }

    @Test("ending a watch in any way releases its handler after the lock: a deinit may call the bus")
    func releasedOutsideTheLock() {
        let bus = EventBus()
        let recorder = Trace()
        let owner = WatchOwner()
        func capture(_ name: String) -> CallsBackOnDeinit {
            CallsBackOnDeinit(bus: bus, recorder: recorder, name: name)
        }
        // Each handler holds the only reference to what it captures.
        let id = bus.watch("x", owner: owner) { [held = capture("by id")] _, _ in withExtendedLifetime(held) {} }
        bus.unwatch(id)
        bus.watch("x", owner: owner) { [held = capture("by owner")] _, _ in withExtendedLifetime(held) {} }
        bus.unwatch(owner: owner, message: "x")
        bus.watch("x") { [held = capture("by token")] _ in withExtendedLifetime(held) {} }.cancel()
        var dying: WatchOwner? = WatchOwner()
        bus.watch("x", owner: dying!) { [held = capture("by sweep")] _, _ in withExtendedLifetime(held) {} }
        dying = nil
        bus.trigger("x")
        #expect(recorder.all == [
            "by id released, 0 watches", "by owner released, 0 watches", "by token released, 0 watches",
            "by sweep released, 0 watches",
        ])
    }
}
