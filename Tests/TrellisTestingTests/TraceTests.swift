import Testing
import TrellisCore
import TrellisTesting

@Suite("Trace")
struct TraceTests {
    @Test("the documentation's example: handlers record what they saw, in order")
    func documentationExample() {
        let bus = EventBus()
        let trace = Trace()
        var watches: [WatchToken] = []
        bus.watch("tick") { _ in trace.record("first") }.store(in: &watches)
        bus.watch("tick") { event in trace.record("second \(event.data)") }.store(in: &watches)
        bus.trigger("tick", 1)
        #expect(trace.all == ["first", "second 1"])
    }

    @Test("entries from many threads are all kept")
    func manyThreads() async {
        let trace = Trace()
        await withTaskGroup(of: Void.self) { group in
            for thread in 0..<8 {
                group.addTask { for step in 0..<100 { trace.record("\(thread).\(step)") } }
            }
        }
        #expect(trace.all.count == 800)
        #expect(trace.all.filter { $0.hasPrefix("3.") } == (0..<100).map { "3.\($0)" }, "one thread's entries stay in its order")
        trace.clear()
        #expect(trace.all.isEmpty)
    }

    @Test("a wait returns once the condition holds, and times out with the entries otherwise")
    func wait() async throws {
        let trace = Trace()
        Task.detached { trace.record("ready") }
        #expect(try await trace.wait { $0.contains("ready") } == ["ready"])
        let error = await #expect(throws: WaitTimeout.self) {
            try await trace.wait(until: { $0.count == 2 }, timeout: .milliseconds(10))
        }
        #expect(error?.recorded == ["ready"])
    }
}
