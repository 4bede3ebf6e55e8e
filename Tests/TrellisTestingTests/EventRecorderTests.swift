import Testing
import TrellisCore
import TrellisTesting

@Suite("EventRecorder")
struct EventRecorderTests {
    @Test("the documentation's example: records in trigger order and waits for an event from another thread")
    func documentationExample() async throws {
        let bus = EventBus()
        let network = EventRecorder(bus: bus, pattern: "network:*")
        bus.trigger("network:on")
        bus.trigger("network:off", ["outcome": "200"])
        #expect(network.messages == ["network:on", "network:off"])
        #expect(network.all.last?.data["outcome"] == "200")

        let sync = EventRecorder(bus: bus, pattern: "sync:*")
        Task.detached { bus.trigger("sync:finished", ["pushed": 1]) }
        let finished = try await sync.wait(for: "sync:finished")
        #expect(finished.first?.data["pushed"] == 1)
    }

    @Test("only messages matching the pattern are recorded, inside trigger")
    func pattern() {
        let bus = EventBus()
        let recorder = EventRecorder(bus: bus, pattern: "store:*")
        bus.trigger("store:saved", ["n": 1])
        bus.trigger("network:on")
        bus.trigger("store:saved", ["n": 2])
        #expect(recorder.messages == ["store:saved", "store:saved"])
        #expect(recorder.count("store:saved") == 2)
        #expect(recorder.events(named: "store:saved").map { $0.data["n"] } == [1, 2])
        #expect(recorder.count("network:on") == 0)
    }

    @Test("clear forgets, stop ends the watch and keeps what was recorded")
    func clearAndStop() {
        let bus = EventBus()
        let recorder = EventRecorder(bus: bus)
        let watches = bus.watchCount
        bus.trigger("a")
        recorder.clear()
        bus.trigger("b")
        #expect(recorder.messages == ["b"])
        recorder.stop()
        bus.trigger("c")
        #expect(recorder.messages == ["b"])
        #expect(bus.watchCount == watches - 1)
    }

    @Test("a recorder that goes away ends its watch")
    func endsWithTheRecorder() {
        let bus = EventBus()
        let before = bus.watchCount
        var recorder: EventRecorder? = EventRecorder(bus: bus)
        #expect(bus.watchCount == before + 1)
        recorder = nil
        #expect(recorder == nil)
        #expect(bus.watchCount == before)
    }

    @Test("a wait for events already recorded returns at once; one for more waits for them")
    func waitCountsEarlierEvents() async throws {
        let bus = EventBus()
        let recorder = EventRecorder(bus: bus)
        bus.trigger("tick", 1)
        #expect(try await recorder.wait(for: "tick").map(\.data) == [1])
        Task.detached {
            for step in 2...3 { bus.trigger("tick", .number(Double(step))) }
        }
        #expect(try await recorder.wait(for: "tick", count: 3).map(\.data) == [1, 2, 3])
    }

    @Test("a wait that runs out of time throws, naming what it waited for and what came instead")
    func waitTimesOut() async {
        let bus = EventBus()
        let recorder = EventRecorder(bus: bus)
        bus.trigger("network:on")
        let error = await #expect(throws: WaitTimeout.self) {
            try await recorder.wait(for: "sync:finished", count: 2, timeout: .milliseconds(20))
        }
        #expect(error?.expectation == "2 events 'sync:finished'")
        #expect(error?.recorded == ["network:on"])
        #expect(error?.description == "waited 0.02 seconds for 2 events 'sync:finished'; recorded 1: network:on")
    }

    @Test("many waiters on many threads are each resumed once, when their own condition holds")
    func concurrentWaiters() async throws {
        let bus = EventBus()
        let recorder = EventRecorder(bus: bus)
        let results = try await withThrowingTaskGroup(of: (wanted: Int, got: Int).self) { group in
            for wanted in 1...20 {
                group.addTask { (wanted, try await recorder.wait(for: "step", count: wanted).count) }
            }
            group.addTask {
                for _ in 1...20 { bus.trigger("step") }
                return (0, 0)
            }
            return try await group.reduce(into: []) { $0.append($1) }.filter { $0.wanted > 0 }
        }
        #expect(results.count == 20)
        #expect(results.allSatisfy { $0.got >= $0.wanted })
    }

    @Test("cancelling the waiting task ends the wait as a timeout")
    func cancelledWait() async {
        let bus = EventBus()
        let recorder = EventRecorder(bus: bus)
        let waiting = Task { try await recorder.wait(for: "never", timeout: .seconds(600)) }
        waiting.cancel()
        let result = await waiting.result
        #expect(throws: WaitTimeout.self) { try result.get() }
    }
}
