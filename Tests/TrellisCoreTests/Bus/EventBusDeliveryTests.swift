import Testing
@testable import TrellisCore
import TrellisTesting

@Suite("EventBus delivery")
struct EventBusDeliveryTests {
    @Test("a watcher receives the message, its data and the sender's identity")
    func deliversMessageDataAndSender() {
        let bus = EventBus()
        let owner = WatchOwner()
        let sender = WatchOwner()
        let seen = LockedState<[Event]>([])
        bus.watch("note:saved", owner: owner) { _, event in seen.withLock { $0.append(event) } }

        bus.trigger("note:saved", ["id": 7], from: sender)
        bus.trigger("note:deleted", ["id": 8])

        let events = seen.withLock { $0 }
        #expect(events.count == 1)
        #expect(events.first?.message == "note:saved")
        #expect(events.first?.data["id"]?.intValue == 7)
        #expect(events.first?.sender == ObjectIdentifier(sender))
    }

    @Test("a trigger without data or sender delivers null data and no sender")
    func defaultsToNullDataAndNoSender() {
        let bus = EventBus()
        let owner = WatchOwner()
        let seen = LockedState<Event?>(nil)
        bus.watch("ping", owner: owner) { _, event in seen.withLock { $0 = event } }
        bus.trigger("ping")
        #expect(seen.withLock { $0?.data } == .null)
        #expect(seen.withLock { $0?.sender } == nil)
    }

    @Test("watchers run in registration order, exact and wildcard interleaved")
    func registrationOrder() {
        let bus = EventBus()
        let owner = WatchOwner()
        let recorder = Trace()
        bus.watch("a:b", owner: owner) { _, _ in recorder.record("exact-1") }
        bus.watch("a:*", owner: owner) { _, _ in recorder.record("wild-2") }
        bus.watch("a:b", owner: owner) { _, _ in recorder.record("exact-3") }
        bus.watch("*", owner: owner) { _, _ in recorder.record("all-4") }
        bus.watch("a:b", owner: owner) { _, _ in recorder.record("exact-5") }

        bus.trigger("a:b")

        #expect(recorder.all == ["exact-1", "wild-2", "exact-3", "all-4", "exact-5"])
    }

    @Test("a watcher added during a delivery does not receive that event, but the next one")
    func addedDuringDeliveryMissesCurrentEvent() {
        let bus = EventBus()
        let owner = WatchOwner()
        let recorder = Trace()
        bus.watch("tick", owner: owner) { _, event in
            recorder.record("first \(event.data)")
            if event.data == 1 {
                bus.watch("tick", owner: owner) { _, event in recorder.record("late \(event.data)") }
            }
        }

        bus.trigger("tick", 1)
        bus.trigger("tick", 2)

        #expect(recorder.all == ["first 1", "first 2", "late 2"])
    }

    @Test("a watcher removed during a delivery is not called afterwards")
    func removedDuringDeliveryIsSkipped() {
        let bus = EventBus()
        let owner = WatchOwner()
        let victim = WatchOwner()
        let recorder = Trace()
        bus.watch("tick", owner: owner) { _, _ in
            recorder.record("remover")
            bus.unwatch(owner: victim)
        }
        bus.watch("tick", owner: victim) { _, _ in recorder.record("victim") }

        bus.trigger("tick")
        bus.trigger("tick")

        #expect(recorder.all == ["remover", "remover"])
    }

    @Test("a trigger inside a watcher is delivered depth-first before the outer trigger goes on")
    func nestedTriggerIsDepthFirst() {
        let bus = EventBus()
        let owner = WatchOwner()
        let recorder = Trace()
        bus.watch("outer", owner: owner) { _, _ in
            recorder.record("outer-1 begin")
            bus.trigger("inner")
            recorder.record("outer-1 end")
        }
        bus.watch("outer", owner: owner) { _, _ in recorder.record("outer-2") }
        bus.watch("inner", owner: owner) { _, _ in recorder.record("inner-1") }
        bus.watch("inner", owner: owner) { _, _ in recorder.record("inner-2") }

        bus.trigger("outer")

        #expect(recorder.all == ["outer-1 begin", "inner-1", "inner-2", "outer-1 end", "outer-2"])
    }

    @Test("a handler may watch, unwatch, count and trigger: the bus lock is not held while it runs")
    func handlersRunOutsideTheLock() {
        let bus = EventBus()
        let owner = WatchOwner()
        let helper = WatchOwner()
        let recorder = Trace()
        bus.watch("go", owner: owner) { _, _ in
            let id = bus.watch("temp", owner: helper) { _, _ in recorder.record("temp") }
            recorder.record("count \(bus.watchCount)")
            bus.trigger("temp")
            bus.unwatch(id)
            bus.unwatch(owner: helper)
            recorder.record("owner count \(bus.watchCount(owner: helper))")
        }

        bus.trigger("go")

        #expect(recorder.all == ["count 2", "temp", "owner count 0"])
    }

    @Test("a message nobody watches is a no-op")
    func unwatchedMessageIsNoOp() {
        let bus = EventBus()
        bus.trigger("nobody:listens", ["x": 1])
        #expect(bus.watchCount == 0)
    }
}
