import Testing
@testable import TrellisCore
import TrellisTesting

@Suite("EventBus ownership and unwatching")
struct EventBusOwnershipTests {
    @Test("an owner's deallocation ends its watches by itself")
    func ownerDeallocationEndsWatches() {
        let bus = EventBus()
        let counter = AtomicCounter()
        var owner: WatchOwner? = WatchOwner()
        bus.watch("tick", owner: owner!) { _, _ in counter.increment() }
        bus.watch("tock:*", owner: owner!) { _, _ in counter.increment() }
        bus.trigger("tick")
        #expect(bus.watchCount == 2)

        owner = nil
        bus.trigger("tick")
        bus.trigger("tock:x")

        #expect(counter.count == 1)
        #expect(bus.watchCount == 0)
    }

    @Test("watchCount drops when an owner dies even if its messages are never triggered again")
    func watchCountPrunesUntriggeredDeadOwners() {
        let bus = EventBus()
        let survivor = WatchOwner()
        bus.watch("kept", owner: survivor) { _, _ in }
        var owner: WatchOwner? = WatchOwner()
        for index in 0..<10 { bus.watch("message-\(index)", owner: owner!) { _, _ in } }
        #expect(bus.watchCount == 11)
        owner = nil
        #expect(bus.watchCount == 1)
    }

    @Test("a handler that receives its owner does not keep the owner alive")
    func ownerPassingHandlerDoesNotRetainOwner() {
        let bus = EventBus()
        final class Tally: Sendable {
            let counter = AtomicCounter()
        }
        var tally: Tally? = Tally()
        weak let weakTally = tally
        bus.watch("add", owner: tally!) { owner, _ in owner.counter.increment() }
        bus.trigger("add")
        #expect(tally?.counter.count == 1)

        tally = nil
        #expect(weakTally == nil)
        #expect(bus.watchCount == 0)
    }

    @Test("an owner released by its own handler gets the rest of its run, then is gone; later owners still run")
    func ownerHeldForItsRun() {
        let bus = EventBus()
        let recorder = Trace()
        let holder = LockedState<WatchOwner?>(WatchOwner())
        weak let weakOwner = holder.withLock { $0 }
        let other = WatchOwner()
        let owner = holder.withLock { $0! }
        bus.watch("go", owner: owner) { _, _ in
            recorder.record("first")
            holder.withLock { $0 = nil }
        }
        bus.watch("go", owner: owner) { _, _ in recorder.record("second, owner alive: \(weakOwner != nil)") }
        bus.watch("go", owner: other) { _, _ in recorder.record("other, first owner gone: \(weakOwner == nil)") }
        bus.watch("go", owner: owner) { _, _ in recorder.record("must not run") }
        _ = consume owner
        bus.trigger("go")
        #expect(recorder.all == ["first", "second, owner alive: true", "other, first owner gone: true"])
        #expect(bus.watchCount == 1)
    }

    @Test("a token watch between two watches of one owner does not end that owner's run")
    func tokenInsideAnOwnersRun() {
        let bus = EventBus()
        let recorder = Trace()
        let holder = LockedState<WatchOwner?>(WatchOwner())
        weak let weakOwner = holder.withLock { $0 }
        let owner = holder.withLock { $0! }
        bus.watch("go", owner: owner) { _, _ in holder.withLock { $0 = nil } }
        let token = bus.watch("go") { _ in recorder.record("token") }
        bus.watch("go", owner: owner) { _, _ in recorder.record("owner alive: \(weakOwner != nil)") }
        _ = consume owner
        bus.trigger("go")
        #expect(recorder.all == ["token", "owner alive: true"])
        #expect(weakOwner == nil)
        withExtendedLifetime(token) {}
    }

    @Test("interleaved owners each get their own watches, a dead one in between is skipped")
    func interleavedOwners() {
        let bus = EventBus()
        let recorder = Trace()
        let a = WatchOwner()
        var b: WatchOwner? = WatchOwner()
        let c = WatchOwner()
        bus.watch("x", owner: a) { _, _ in recorder.record("a1") }
        bus.watch("x", owner: b!) { _, _ in recorder.record("b1") }
        bus.watch("x", owner: a) { _, _ in recorder.record("a2") }
        bus.watch("x", owner: b!) { _, _ in recorder.record("b2") }
        bus.watch("x", owner: c) { _, _ in recorder.record("c1") }
        bus.watch("x", owner: c) { _, _ in recorder.record("c2") }
        bus.trigger("x")
        #expect(recorder.all == ["a1", "b1", "a2", "b2", "c1", "c2"])
        b = nil
        bus.trigger("x")
        #expect(recorder.all.suffix(4) == ["a1", "a2", "c1", "c2"])
        #expect(bus.watchCount == 4)
    }

    @Test("a new owner at a dead owner's address does not inherit its watches")
    func reusedOwnerAddress() {
        let bus = EventBus()
        let counter = AtomicCounter()
        var identities = Set<ObjectIdentifier>()
        // Allocate and drop owners until one reuses an earlier one's address (the allocator
        // does this quickly for objects of one size); each watches once.
        for _ in 0..<1_000 {
            let owner = WatchOwner()
            let fresh = identities.insert(ObjectIdentifier(owner)).inserted
            if !fresh {
                bus.trigger("ping")
                #expect(counter.count == 0, "a dead owner's watch ran for the object now at its address")
                bus.watch("ping", owner: owner) { _, _ in counter.increment() }
                bus.trigger("ping")
                #expect(counter.count == 1)
                return
            }
            bus.watch("ping", owner: owner) { _, _ in counter.increment() }
        }
        Issue.record("no address was reused in 1,000 allocations")
    }

    @Test("a sender filter delivers only messages from that sender")
    func senderFilter() {
        let bus = EventBus()
        let owner = WatchOwner()
        let noteA = WatchOwner()
        let noteB = WatchOwner()
        let recorder = Trace()
        bus.watch("changed", from: noteA, owner: owner) { _, event in recorder.record("A \(event.data)") }

        bus.trigger("changed", 1, from: noteA)
        bus.trigger("changed", 2, from: noteB)
        bus.trigger("changed", 3)

        #expect(recorder.all == ["A 1"])
    }

    @Test("a deallocated sender ends the watches filtered on it")
    func senderDeallocationEndsWatches() {
        let bus = EventBus()
        let owner = WatchOwner()
        var note: WatchOwner? = WatchOwner()
        bus.watch("changed", from: note!, owner: owner) { _, _ in }
        bus.watch("*", from: note!, owner: owner) { _, _ in }
        bus.watch("changed", owner: owner) { _, _ in }
        #expect(bus.watchCount == 3)

        note = nil

        #expect(bus.watchCount == 1)
        #expect(bus.watchCount(owner: owner) == 1)
    }

    @Test("watching every message from a sender gets all its messages and nobody else's")
    func everyMessageFromSender() {
        let bus = EventBus()
        let owner = WatchOwner()
        let model = WatchOwner()
        let recorder = Trace()
        bus.watch("*", from: model, owner: owner) { _, event in recorder.record(event.message) }

        bus.trigger("saved", from: model)
        bus.trigger("deleted", from: model)
        bus.trigger("saved", from: WatchOwner())
        bus.trigger("saved")

        #expect(recorder.all == ["saved", "deleted"])
    }

    @Test("unwatch(owner:) ends all of that owner's watches and no one else's")
    func unwatchAll() {
        let bus = EventBus()
        let owner = WatchOwner()
        let other = WatchOwner()
        bus.watch("a", owner: owner) { _, _ in }
        bus.watch("b:*", owner: owner) { _, _ in }
        bus.watch("*", from: other, owner: owner) { _, _ in }
        bus.watch("a", owner: other) { _, _ in }

        bus.unwatch(owner: owner)

        #expect(bus.watchCount(owner: owner) == 0)
        #expect(bus.watchCount(owner: other) == 1)
    }

    @Test("unwatch(owner:message:) ends the watches of exactly that pattern")
    func unwatchMessage() {
        let bus = EventBus()
        let owner = WatchOwner()
        let recorder = Trace()
        bus.watch("net:on", owner: owner) { _, _ in recorder.record("exact") }
        bus.watch("net:*", owner: owner) { _, _ in recorder.record("wildcard") }
        bus.watch("net:on", from: owner, owner: owner) { _, _ in recorder.record("filtered") }

        bus.unwatch(owner: owner, message: "net:on")
        bus.trigger("net:on", from: owner)
        #expect(recorder.all == ["wildcard"])

        bus.unwatch(owner: owner, message: "net:*")
        #expect(bus.watchCount(owner: owner) == 0)
    }

    @Test("unwatch(owner:message:from:) ends only the watches of that pattern filtered on that sender")
    func unwatchMessageFromSender() {
        let bus = EventBus()
        let owner = WatchOwner()
        let noteA = WatchOwner()
        let noteB = WatchOwner()
        let recorder = Trace()
        bus.watch("changed", from: noteA, owner: owner) { _, _ in recorder.record("A") }
        bus.watch("changed", from: noteB, owner: owner) { _, _ in recorder.record("B") }
        bus.watch("changed", owner: owner) { _, _ in recorder.record("any") }

        bus.unwatch(owner: owner, message: "changed", from: noteA)
        bus.trigger("changed", from: noteA)
        bus.trigger("changed", from: noteB)

        #expect(recorder.all == ["any", "B", "any"])
    }

    @Test("unwatch(owner:from:) ends every watch of the owner filtered on that sender")
    func unwatchFromSender() {
        let bus = EventBus()
        let owner = WatchOwner()
        let note = WatchOwner()
        bus.watch("changed", from: note, owner: owner) { _, _ in }
        bus.watch("saved:*", from: note, owner: owner) { _, _ in }
        bus.watch("*", from: note, owner: owner) { _, _ in }
        bus.watch("changed", owner: owner) { _, _ in }

        bus.unwatch(owner: owner, from: note)

        #expect(bus.watchCount(owner: owner) == 1)
    }

    @Test("unwatch(id) ends one watch; an unknown or repeated id is ignored")
    func unwatchByID() {
        let bus = EventBus()
        let owner = WatchOwner()
        let recorder = Trace()
        let first = bus.watch("tick", owner: owner) { _, _ in recorder.record("first") }
        bus.watch("tick", owner: owner) { _, _ in recorder.record("second") }

        bus.unwatch(first)
        bus.unwatch(first)
        bus.trigger("tick")

        #expect(recorder.all == ["second"])
        #expect(bus.watchCount == 1)
    }

    @Test("watch identifiers increase in registration order")
    func watchIDsIncrease() {
        let bus = EventBus()
        let owner = WatchOwner()
        let first = bus.watch("a", owner: owner) { _, _ in }
        let second = bus.watch("b:*", owner: owner) { _, _ in }
        #expect(first < second)
        #expect(first != second)
    }
}
