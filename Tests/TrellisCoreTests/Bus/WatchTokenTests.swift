import Foundation
import Testing
@testable import TrellisCore
import TrellisTesting

@Suite("EventBus token watches")
struct WatchTokenTests {
    @Test("a token watch delivers while the token is kept and ends when it is released")
    func endsWithToken() {
        let bus = EventBus()
        let counter = AtomicCounter()
        var token: WatchToken? = bus.watch("tick") { _ in counter.increment() }
        bus.trigger("tick")
        #expect(counter.count == 1)
        #expect(bus.watchCount == 1)
        withExtendedLifetime(token) {}

        token = nil
        bus.trigger("tick")
        #expect(counter.count == 1)
        #expect(bus.watchCount == 0)
    }

    @Test("a discarded token ends its watch at once")
    func discardedToken() {
        let bus = EventBus()
        let counter = AtomicCounter()
        _ = bus.watch("tick") { _ in counter.increment() }
        bus.trigger("tick")
        #expect(counter.count == 0)
        #expect(bus.watchCount == 0)
    }

    @Test("cancel ends the watch; cancelling twice or releasing afterwards is harmless")
    func cancel() {
        let bus = EventBus()
        let counter = AtomicCounter()
        let token = bus.watch("tick") { _ in counter.increment() }
        let other = bus.watch("tick") { _ in counter.increment() }
        token.cancel()
        token.cancel()
        bus.trigger("tick")
        #expect(counter.count == 1)
        #expect(bus.watchCount == 1)
        withExtendedLifetime((token, other)) {}
    }

    @Test("tokens stored in an array or a set keep their watches until the collection goes")
    func storedTokens() {
        let bus = EventBus()
        let recorder = Trace()
        final class Page {
            var list: [WatchToken] = []
            var set: Set<WatchToken> = []
        }
        var page: Page? = Page()
        bus.watch("a") { _ in recorder.record("a") }.store(in: &page!.list)
        bus.watch("b:*") { event in recorder.record(event.message) }.store(in: &page!.set)
        bus.trigger("a")
        bus.trigger("b:1")
        #expect(recorder.all == ["a", "b:1"])

        page = nil
        bus.trigger("a")
        bus.trigger("b:2")
        #expect(recorder.all == ["a", "b:1"])
        #expect(bus.watchCount == 0)
    }

    @Test("token and owner watches interleave in registration order")
    func orderWithOwners() {
        let bus = EventBus()
        let recorder = Trace()
        let owner = WatchOwner()
        var tokens: [WatchToken] = []
        bus.watch("x", owner: owner) { _, _ in recorder.record("owner 1") }
        bus.watch("x") { _ in recorder.record("token 1") }.store(in: &tokens)
        bus.watch("x", owner: owner) { _, _ in recorder.record("owner 2") }
        bus.watch("*") { _ in recorder.record("token wildcard") }.store(in: &tokens)
        bus.watch("x") { _ in recorder.record("token 2") }.store(in: &tokens)
        bus.trigger("x")
        #expect(recorder.all == ["owner 1", "token 1", "owner 2", "token wildcard", "token 2"])
    }

    @Test("unwatching an owner leaves token watches alone")
    func ownerUnwatchSparesTokens() {
        let bus = EventBus()
        let counter = AtomicCounter()
        let owner = WatchOwner()
        bus.watch("x", owner: owner) { _, _ in counter.increment() }
        let token = bus.watch("x") { _ in counter.increment() }
        bus.unwatch(owner: owner)
        bus.trigger("x")
        #expect(counter.count == 1)
        #expect(bus.watchCount == 1)
        withExtendedLifetime(token) {}
    }

    @Test("a handler that releases its own token is not called again, even later in the same event")
    func tokenReleasedDuringDelivery() {
        let bus = EventBus()
        let recorder = Trace()
        let holder = LockedState<[WatchToken]>([])
        do {
            let first = bus.watch("go") { _ in
                recorder.record("first")
                // Releases both tokens, including the one of the watcher still to come.
                holder.withLock { $0.removeAll() }
            }
            let second = bus.watch("go") { _ in recorder.record("second must not run") }
            holder.withLock { $0 = [first, second] }
        }
        bus.trigger("go")
        bus.trigger("go")
        #expect(recorder.all == ["first"])
        #expect(bus.watchCount == 0)
    }

    @Test("a token outliving its bus does not keep the bus alive and ends quietly")
    func tokenOutlivesBus() {
        var bus: EventBus? = EventBus()
        weak let weakBus = bus
        var token: WatchToken? = bus!.watch("x") { _ in }
        bus = nil
        #expect(weakBus == nil)
        token?.cancel()
        token = nil
        #expect(token == nil)
    }

    @Test("a token watch filtered on a sender gets only that sender's messages")
    func senderFilter() {
        let bus = EventBus()
        let recorder = Trace()
        let model = WatchOwner()
        let tokens = [
            bus.watch("saved", from: model) { event in recorder.record("saved \(event.data)") },
            bus.watch("*", from: model) { event in recorder.record("every \(event.message)") },
        ]
        bus.trigger("saved", 1, from: model)
        bus.trigger("saved", 2, from: WatchOwner())
        bus.trigger("deleted", from: model)
        #expect(recorder.all == ["saved 1", "every saved", "every deleted"])
        withExtendedLifetime(tokens) {}
    }

    @Test("a main-actor token watch runs on the main queue, and not after its token is released")
    func mainActorToken() async {
        let bus = EventBus()
        let recorder = Trace()
        var token: WatchToken? = bus.watchOnMainActor("done") { event in
            recorder.record("\(event.data) main=\(MainQueueProbe.isOnMainQueue)")
        }
        await Task.detached { bus.trigger("done", 1) }.value
        #expect(await eventually { !recorder.all.isEmpty })
        #expect(recorder.all == ["1 main=true"])

        // Triggered, then released before the main queue runs the delivery.
        await MainActor.run {
            bus.trigger("done", 2)
            token = nil
        }
        await MainActor.run {}
        bus.trigger("done", 3)
        try? await Task.sleep(for: .milliseconds(50))
        await MainActor.run {}
        #expect(recorder.all == ["1 main=true"])
        #expect(token == nil)
    }

    @Test("threads triggering while others add and release token watches: stable watches see every event")
    func stress() {
        let bus = EventBus()
        let stable = AtomicCounter()
        let keep = bus.watch("stress:tick") { _ in stable.increment() }
        let threads = 3
        let triggers = 4_000
        let group = DispatchGroup()
        for _ in 0..<threads {
            group.enter()
            Thread.detachNewThread {
                for _ in 0..<triggers { bus.trigger("stress:tick") }
                group.leave()
            }
        }
        group.enter()
        Thread.detachNewThread {
            for round in 0..<2_000 {
                let churn = bus.watch(round.isMultiple(of: 2) ? "stress:tick" : "stress:*") { _ in }
                if round.isMultiple(of: 3) { churn.cancel() }
            }
            group.leave()
        }
        group.wait()
        #expect(stable.count == threads * triggers)
        #expect(bus.watchCount == 1)
        withExtendedLifetime(keep) {}
    }
}
