import Testing
@testable import TrellisCore
import TrellisTesting

@Suite("FrontController stages")
struct FrontControllerStageTests {
    let bus = EventBus()
    let trace = Trace()

    @Test("stages run security, validation, business, view; several per stage in mapping order")
    func mappingOrder() async {
        let controller = FrontController(bus: bus)
        let trace = trace
        controller.mapView("save") { ProbeView("view-1", trace) }
        controller.mapBusiness("save") { ProbeStep(label: "business-1", trace: trace) }
        controller.mapValidation("save") { ProbeStep(label: "validation-1", trace: trace) }
        controller.mapSecurity("save") { ProbeStep(label: "security-1", trace: trace) }
        controller.mapBusiness("save") { ProbeStep(label: "business-2", trace: trace) }
        controller.mapView("save") { ProbeView("view-2", trace) }
        controller.mapValidation("save") { ProbeStep(label: "validation-2", trace: trace) }

        let outcome = await controller.handleRequest("save")

        #expect(outcome.isCompleted)
        #expect(trace.labels == ["security-1", "validation-1", "validation-2", "business-1", "business-2", "view-1", "view-2"])
    }

    @Test("objects mapped to default run before the command's own, for every request")
    func defaultCommandRunsFirst() async {
        let controller = FrontController(bus: bus)
        let trace = trace
        controller.mapSecurity("default") { ProbeStep(label: "default-security", trace: trace) }
        controller.mapView("default") { ProbeView("default-view", trace) }
        controller.mapSecurity("save") { ProbeStep(label: "save-security", trace: trace) }
        controller.mapView("save") { ProbeView("save-view", trace) }
        controller.mapBusiness("load") { ProbeStep(label: "load-business", trace: trace) }

        _ = await controller.handleRequest("save")
        _ = await controller.handleRequest("load")

        #expect(trace.labels == [
            "default-security", "save-security", "default-view", "save-view",
            "default-security", "load-business", "default-view",
        ])
    }

    @Test("security, validation and business run off the main actor, view on it, even when called from it")
    @MainActor
    func threadOfEachStage() async {
        let controller = FrontController(bus: bus)
        let trace = trace
        controller.mapSecurity("save") { ProbeStep(label: "security", trace: trace) }
        controller.mapValidation("save") { ProbeStep(label: "validation", trace: trace) }
        controller.mapBusiness("save") { ProbeStep(label: "business", trace: trace) }
        controller.mapView("save") { ProbeView("view", trace) }

        _ = await controller.handleRequest("save")

        #expect(trace.all.map { $0.split(separator: " ").prefix(2).joined(separator: " ") } == [
            "security main=false", "validation main=false", "business main=false", "view main=true",
        ])
    }

    @Test("business results accumulate in the parameters that later objects and the outcome see")
    func resultAccumulation() async {
        let controller = FrontController(bus: bus)
        let trace = trace
        controller.mapBusiness("save") { ProbeStep(label: "store", trace: trace, adds: ["id": 42]) }
        controller.mapBusiness("save") { ProbeStep(label: "stamp", trace: trace, adds: ["saved": true]) }
        controller.mapView("save") { ProbeView("view", trace) }

        let outcome = await controller.handleRequest("save", parameters: ["title": "Фэнтези"])

        #expect(trace.all == [
            #"store main=false keys=["title"]"#,
            #"stamp main=false keys=["id", "title"]"#,
            #"view main=true keys=["id", "saved", "title"]"#,
        ])
        #expect(outcome.parameters == ["title": "Фэнтези", "id": 42, "saved": true])
    }

    @Test("a stop in security ends the request before validation, business and view")
    func stopInSecurity() async {
        let controller = FrontController(bus: bus)
        let trace = trace
        controller.mapSecurity("save") { ProbeStep(label: "security", trace: trace, result: .stop) }
        controller.mapValidation("save") { ProbeStep(label: "validation", trace: trace) }
        controller.mapBusiness("save") { ProbeStep(label: "business", trace: trace) }
        controller.mapView("save") { ProbeView("view", trace) }

        let outcome = await controller.handleRequest("save")

        #expect(trace.labels == ["security"])
        guard case .stopped(.security, _) = outcome else { Issue.record("expected a security stop, got \(outcome)"); return }
    }

    @Test("a stop in validation ends the request before business and view")
    func stopInValidation() async {
        let controller = FrontController(bus: bus)
        let trace = trace
        controller.mapValidation("save") { ProbeStep(label: "validation-1", trace: trace, result: .stop) }
        controller.mapValidation("save") { ProbeStep(label: "validation-2", trace: trace) }
        controller.mapBusiness("save") { ProbeStep(label: "business", trace: trace) }
        controller.mapView("save") { ProbeView("view", trace) }

        let outcome = await controller.handleRequest("save")

        #expect(trace.labels == ["validation-1"])
        guard case .stopped(.validation, _) = outcome else { Issue.record("expected a validation stop, got \(outcome)"); return }
    }

    @Test("a stop in business skips the remaining business objects and the view")
    func stopInBusiness() async {
        let controller = FrontController(bus: bus)
        let trace = trace
        controller.mapBusiness("save") { ProbeStep(label: "business-1", trace: trace, adds: ["partial": true], result: .stop) }
        controller.mapBusiness("save") { ProbeStep(label: "business-2", trace: trace) }
        controller.mapView("save") { ProbeView("view", trace) }

        let outcome = await controller.handleRequest("save")

        #expect(trace.labels == ["business-1"])
        guard case .stopped(.business, let parameters) = outcome else { Issue.record("expected a business stop"); return }
        #expect(parameters == ["partial": true])
    }

    @Test("a stop in view skips the remaining view objects")
    func stopInView() async {
        let controller = FrontController(bus: bus)
        let trace = trace
        controller.mapView("save") { ProbeView("view-1", trace, result: .stop) }
        controller.mapView("save") { ProbeView("view-2", trace) }

        let outcome = await controller.handleRequest("save")

        #expect(trace.labels == ["view-1"])
        guard case .stopped(.view, _) = outcome else { Issue.record("expected a view stop, got \(outcome)"); return }
    }

    @Test("each request gets fresh control objects from the factories")
    func freshObjectsPerRequest() async {
        let controller = FrontController(bus: bus)
        let made = AtomicCounter()
        let trace = trace
        controller.mapBusiness("save") {
            made.increment()
            return ProbeStep(label: "business", trace: trace)
        }
        _ = await controller.handleRequest("save")
        _ = await controller.handleRequest("save")
        #expect(made.count == 2)
    }
}
