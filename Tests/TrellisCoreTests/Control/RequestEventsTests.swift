import Testing
@testable import TrellisCore
import TrellisTesting

@Suite("FrontController lifecycle events")
struct RequestEventsTests {
    let bus = EventBus()
    let trace = Trace()
    /// What the controller logs (the unknown command's error), kept out of the test log.
    let logs = LogCapture()

    func controller() -> FrontController {
        let controller = FrontController(bus: bus, logger: logs.logger())
        let trace = trace
        controller.mapBusiness("save") { ProbeStep(label: "save", trace: trace) }
        controller.mapValidation("check") { ProbeStep(label: "check", trace: trace, result: .stop) }
        controller.mapSecurity("guarded") { ProbeStep(label: "guard", trace: trace, result: .stop) }
        controller.mapBusiness("sync") { ProbeStep(label: "sync", trace: trace, error: ProbeError(text: "offline")) }
        controller.mapError("sync") { ProbeView("sync-error", trace) }
        return controller
    }

    @Test("each request triggers started and exactly one terminal event naming the command")
    func terminalEvents() async {
        let controller = controller()
        let log = LifecycleLog(bus: bus)

        _ = await controller.handleRequest("save")
        _ = await controller.handleRequest("check")
        _ = await controller.handleRequest("guarded")
        _ = await controller.handleRequest("sync")
        _ = await controller.handleRequest("nope")

        #expect(log.all == [
            "request:started save", "request:finished save status=completed",
            "request:started check", "request:validation-failed check object=ProbeStep",
            "request:started guarded", "request:finished guarded stage=security status=stopped",
            "request:started sync",
            "request:failed sync errorCommand=sync handled=true object=ProbeStep reason=offline stage=business",
            "request:started nope",
            "request:failed nope errorCommand=nope handled=false reason=unknown command 'nope': nothing is mapped to it",
        ])
    }

    @Test("events carry the request id, come from the controller, and ids increase")
    func idsAndSender() async {
        let controller = controller()
        let seen = LockedState<[Event]>([])
        let owner = WatchOwner()
        bus.watch("request:*", from: controller, owner: owner) { _, event in seen.withLock { $0.append(event) } }

        let first = controller.submit("save")
        _ = await first.outcome
        let second = controller.submit("save")
        _ = await second.outcome

        let events = seen.withLock { $0 }
        #expect(events.map { $0.data["id"]?.intValue } == [1, 1, 2, 2].map { Int(first.id.rawValue) - 1 + $0 })
        #expect(first.id < second.id)
        #expect(events.allSatisfy { $0.sender == ObjectIdentifier(controller) })
    }
}
