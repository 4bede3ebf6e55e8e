import Testing
@testable import TrellisCore
import TrellisTesting

@Suite("FrontController error routing")
struct FrontControllerErrorTests {
    let bus = EventBus()
    let trace = Trace()

    @Test("dispatchToError ends the request and runs the error objects of the named error command")
    func explicitDispatch() async {
        let controller = FrontController(bus: bus)
        let trace = trace
        controller.mapValidation("addNote") {
            ProbeStep(label: "title-check", trace: trace, result: .dispatchToError(command: "invalidNote", reason: "A note needs a title."))
        }
        controller.mapBusiness("addNote") { ProbeStep(label: "save", trace: trace) }
        controller.mapView("addNote") { ProbeView("show", trace) }
        controller.mapError("addNote") { ProbeView("addNote-error", trace) }
        controller.mapError("invalidNote") { ProbeView("invalid-message", trace) }

        let outcome = await controller.handleRequest("addNote", parameters: ["title": ""])

        #expect(trace.all == [
            #"title-check main=false keys=["title"]"#,
            #"invalid-message main=true keys=["title"] failure=invalidNote/validation/A note needs a title."#,
        ])
        guard case .failed(let failure, handled: true) = outcome else { Issue.record("expected a handled failure"); return }
        #expect(failure.object == "ProbeStep")
        #expect(failure.command == "addNote")
    }

    @Test("a thrown error goes to the error objects of the request's own command, on the main actor")
    func thrownErrorGoesToCommandErrorObjects() async {
        let controller = FrontController(bus: bus)
        let trace = trace
        controller.mapBusiness("sync") { ProbeStep(label: "upload", trace: trace, error: ProbeError(text: "server said 503")) }
        controller.mapView("sync") { ProbeView("show", trace) }
        controller.mapError("sync") { ProbeView("sync-error", trace) }

        let outcome = await controller.handleRequest("sync")

        #expect(trace.all.last == "sync-error main=true keys=[] failure=sync/business/server said 503")
        #expect(!trace.labels.contains("show"))
        guard case .failed(let failure, handled: true) = outcome else { Issue.record("expected a handled failure"); return }
        #expect(failure.underlying is ProbeError)
        #expect(failure.description == "command 'sync' (business stage, ProbeStep) failed: server said 503")
    }

    @Test("a view object's error is routed the same way")
    func viewErrorIsRouted() async {
        let controller = FrontController(bus: bus)
        let trace = trace
        controller.mapView("open") { ProbeView("render", trace, error: ProbeError(text: "no such page")) }
        controller.mapError("open") { ProbeView("open-error", trace) }

        let outcome = await controller.handleRequest("open")

        #expect(trace.all.last == "open-error main=true keys=[] failure=open/view/no such page")
        #expect(outcome.failure?.stage == .view)
    }

    @Test("without error objects of its own, a failure goes to the default error command")
    func defaultErrorCommand() async {
        let controller = FrontController(bus: bus)
        let trace = trace
        controller.mapBusiness("sync") { ProbeStep(label: "upload", trace: trace, error: ProbeError(text: "offline")) }
        controller.mapError("default") { ProbeView("default-error", trace) }

        let outcome = await controller.handleRequest("sync")

        #expect(trace.labels == ["upload", "default-error"])
        guard case .failed(_, handled: true) = outcome else { Issue.record("expected a handled failure"); return }
    }

    @Test("the command's error objects come first; a stop keeps the failure from the default ones")
    func errorChainOrderAndStop() async {
        let controller = FrontController(bus: bus)
        let trace = trace
        controller.mapError("default") { ProbeView("default-error", trace) }
        controller.mapError("a") { ProbeView("a-error", trace) }
        controller.mapError("b") { ProbeView("b-error", trace, result: .stop) }
        controller.mapBusiness("a") { ProbeStep(label: "a", trace: trace, error: ProbeError(text: "x")) }
        controller.mapBusiness("b") { ProbeStep(label: "b", trace: trace, error: ProbeError(text: "y")) }

        _ = await controller.handleRequest("a")
        _ = await controller.handleRequest("b")

        #expect(trace.labels == ["a", "a-error", "default-error", "b", "b-error"])
    }

    @Test("an unhandled error is logged with the command's name and the shell goes on")
    func unhandledErrorIsLogged() async {
        let capture = LogCapture()
        let controller = FrontController(bus: bus, logger: capture.logger())
        let trace = trace
        controller.mapBusiness("sync") { ProbeStep(label: "upload", trace: trace, error: ProbeError(text: "disk full")) }

        let outcome = await controller.handleRequest("sync")

        guard case .failed(let failure, handled: false) = outcome else { Issue.record("expected an unhandled failure"); return }
        #expect(failure.reason == "disk full")
        #expect(capture.entries.contains { $0.level == .error && $0.message.contains("'sync'") && $0.message.contains("disk full") })
        #expect(await controller.handleRequest("sync").failure != nil)
    }

    @Test("an error object that throws is logged and the next error object still runs")
    func throwingErrorObjectIsLogged() async {
        let capture = LogCapture()
        let controller = FrontController(bus: bus, logger: capture.logger())
        let trace = trace
        controller.mapBusiness("sync") { ProbeStep(label: "upload", trace: trace, error: ProbeError(text: "offline")) }
        controller.mapError("sync") { ProbeView("broken-error", trace, error: ProbeError(text: "cannot show")) }
        controller.mapError("default") { ProbeView("default-error", trace) }

        _ = await controller.handleRequest("sync")

        #expect(trace.labels == ["upload", "broken-error", "default-error"])
        #expect(capture.entries.contains { $0.level == .error && $0.message.contains("error object 'ProbeView' threw") && $0.message.contains("cannot show") })
    }

    @Test("an unknown command is a failure naming it, logged, with no object run")
    func unknownCommand() async {
        let capture = LogCapture()
        let controller = FrontController(bus: bus, logger: capture.logger())
        let trace = trace
        controller.mapError("default") { ProbeView("default-error", trace) }

        let outcome = await controller.handleRequest("frobnicate")

        guard case .failed(let failure, handled: false) = outcome else { Issue.record("expected an unhandled failure"); return }
        #expect(failure.underlying as? ControlError == .unknownCommand("frobnicate"))
        #expect(failure.reason == "unknown command 'frobnicate': nothing is mapped to it")
        #expect(trace.all.isEmpty)
        #expect(capture.entries.contains { $0.level == .error && $0.message.contains("'frobnicate'") })
    }

    @Test("a declared command with nothing mapped runs the default objects and logs at debug")
    func declaredEmptyCommand() async {
        let capture = LogCapture()
        let controller = FrontController(bus: bus, logger: capture.logger())
        let trace = trace
        controller.mapBusiness("default") { ProbeStep(label: "default-business", trace: trace) }
        controller.declare("ping")

        let outcome = await controller.handleRequest("ping")

        #expect(outcome.isCompleted)
        #expect(trace.labels == ["default-business"])
        #expect(capture.entries.contains { $0.level == .debug && $0.message.contains("nothing is mapped to command 'ping'") })
    }
}
