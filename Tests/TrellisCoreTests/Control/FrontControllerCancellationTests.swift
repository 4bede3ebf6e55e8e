import Testing
@testable import TrellisCore
import TrellisTesting

@Suite("FrontController cancellation and batches")
struct FrontControllerCancellationTests {
    let bus = EventBus()
    let trace = Trace()
    /// What the controller logs (unknown commands' errors), kept out of the test log.
    let logs = LogCapture()

    /// A controller whose `slow` command has a business object that waits a minute.
    func slowController() -> FrontController {
        let controller = FrontController(bus: bus, logger: logs.logger())
        let trace = trace
        controller.mapBusiness("slow") { ProbeStep(label: "waiting", trace: trace, sleep: .seconds(60)) }
        controller.mapView("slow") { ProbeView("view", trace) }
        controller.mapError("slow") { ProbeView("error", trace) }
        controller.mapBusiness("quick") { ProbeStep(label: "quick", trace: trace, adds: ["done": true]) }
        return controller
    }

    @Test("cancelling a submitted request ends it as cancelled; later objects and error objects do not run")
    func cancelSubmitted() async {
        let controller = slowController()
        let log = LifecycleLog(bus: bus)
        let trace = trace
        let handle = controller.submit("slow")
        #expect(await eventually { trace.labels == ["waiting"] })

        handle.cancel()
        let outcome = await handle.outcome

        guard case .cancelled = outcome else { Issue.record("expected cancelled, got \(outcome)"); return }
        #expect(trace.labels == ["waiting"])
        #expect(log.all == ["request:started slow", "request:cancelled slow"])
    }

    @Test("cancelling the task that awaits handleRequest cancels the request")
    func cancelCallingTask() async {
        let controller = slowController()
        let trace = trace
        let caller = Task { await controller.handleRequest("slow") }
        #expect(await eventually { trace.labels == ["waiting"] })

        caller.cancel()

        guard case .cancelled = await caller.value else { Issue.record("expected cancelled"); return }
    }

    @Test("a request cancelled before it starts runs no object")
    func cancelledBeforeStart() async {
        let controller = slowController()
        let outcome = await Task {
            withUnsafeCurrentTask { $0?.cancel() }
            return await controller.handleRequest("quick")
        }.value
        guard case .cancelled = outcome else { Issue.record("expected cancelled, got \(outcome)"); return }
        #expect(trace.all.isEmpty)
    }

    @Test("a batch of one fires its completion exactly once, on the main actor")
    func batchOfOne() async {
        let controller = slowController()
        let calls = Trace()
        let handle = controller.submitBatch([BatchRequest("quick", parameters: ["n": 1])]) { outcomes in
            calls.record("\(outcomes.count) \(outcomes.map(\.isCompleted)) main=\(MainQueueProbe.isOnMainQueue)")
        }
        let outcomes = await handle.outcomes
        #expect(outcomes.first?.parameters == ["n": 1, "done": true])
        #expect(calls.all == ["1 [true] main=true"])
    }

    @Test("a batch of many fires its completion exactly once, with the outcomes in request order")
    func batchOfMany() async {
        let controller = slowController()
        let calls = Trace()
        let requests = (0..<25).map { index in
            index % 5 == 4 ? BatchRequest("unknown-\(index)") : BatchRequest("quick", parameters: ["n": .number(Double(index))])
        }
        let handle = controller.submitBatch(requests) { outcomes in
            calls.record("\(outcomes.count)")
        }
        let outcomes = await handle.outcomes

        #expect(calls.all == ["25"])
        for (index, outcome) in outcomes.enumerated() {
            if index % 5 == 4 {
                #expect(outcome.failure?.command == "unknown-\(index)")
            } else {
                #expect(outcome.parameters?["n"]?.intValue == index)
            }
        }
    }

    @Test("an empty batch fires its completion once, at once")
    func emptyBatch() async {
        let controller = slowController()
        let calls = Trace()
        let handle = controller.submitBatch([]) { outcomes in calls.record("\(outcomes.count)") }
        _ = await handle.outcomes
        #expect(calls.all == ["0"])
    }

    @Test("a cancelled batch still fires its completion exactly once, with the requests cancelled")
    func cancelledBatch() async {
        let controller = slowController()
        let calls = Trace()
        let trace = trace
        let handle = controller.submitBatch([BatchRequest("slow"), BatchRequest("slow")]) { outcomes in
            calls.record(outcomes.map { if case .cancelled = $0 { "cancelled" } else { "other" } }.joined(separator: ","))
        }
        #expect(await eventually { trace.labels == ["waiting", "waiting"] })

        handle.cancel()
        _ = await handle.outcomes

        #expect(calls.all == ["cancelled,cancelled"])
    }

    @Test("handleBatch returns the outcomes in request order")
    func handleBatchOrder() async {
        let controller = slowController()
        let outcomes = await controller.handleBatch((0..<10).map { BatchRequest("quick", parameters: ["n": .number(Double($0))]) })
        #expect(outcomes.map { $0.parameters?["n"]?.intValue } == Array(0..<10))
    }
}
