import Testing
@testable import TrellisCore
import TrellisTesting

@Suite("FrontController mapping by name")
struct ControlMappingTests {
    let bus = EventBus()
    let trace = Trace()

    struct NoteTitleValidation: ControlObject {
        let trace: Trace
        func handle(_ request: inout ControlRequest) async throws -> ControlResult {
            trace.record("NoteTitleValidation")
            return request.parameters["title"]?.stringValue?.isEmpty == false
                ? .continue : .dispatchToError(command: "invalidNote", reason: "A note needs a title.")
        }
    }

    struct SaveNoteBusiness: ControlObject {
        let trace: Trace
        func handle(_ request: inout ControlRequest) async throws -> ControlResult {
            trace.record("SaveNoteBusiness")
            request.parameters["id"] = 1
            return .continue
        }
    }

    @MainActor
    final class ShowMessageView: ViewControlObject {
        let trace: Trace
        init(trace: Trace) { self.trace = trace }
        func handle(_ request: inout ControlRequest) async throws -> ControlResult {
            trace.record("ShowMessageView \(request.failure?.reason ?? "")")
            return .stop
        }
    }

    func registry() throws -> ControlObjectRegistry {
        let objects = ControlObjectRegistry()
        let trace = trace
        try objects.register(NoteTitleValidation.self) { NoteTitleValidation(trace: trace) }
        try objects.register(SaveNoteBusiness.self) { SaveNoteBusiness(trace: trace) }
        try objects.register(ShowMessageView.self) { ShowMessageView(trace: trace) }
        try objects.register(ShowMessageView.self, name: "ShowNotesView") { ShowMessageView(trace: trace) }
        return objects
    }

    @Test("objects registered by type name can be mapped by that name")
    func mapByName() async throws {
        let controller = FrontController(bus: bus, objects: try registry())
        try controller.map(.validation, command: "addNote", named: "NoteTitleValidation")
        try controller.map(.business, command: "addNote", named: "SaveNoteBusiness")
        try controller.map(.error, command: "invalidNote", named: "ShowMessageView")

        let saved = await controller.handleRequest("addNote", parameters: ["title": "Поэзия"])
        let rejected = await controller.handleRequest("addNote", parameters: ["title": ""])

        #expect(saved.parameters?["id"] == 1)
        #expect(rejected.failure?.errorCommand == "invalidNote")
        #expect(trace.all == [
            "NoteTitleValidation", "SaveNoteBusiness", "NoteTitleValidation", "ShowMessageView A note needs a title.",
        ])
        #expect(controller.objects.names == ["NoteTitleValidation", "SaveNoteBusiness", "ShowMessageView", "ShowNotesView"])
    }

    @Test("mapping an unknown name is an error naming it, the command and the kind; nothing is mapped")
    func unknownName() throws {
        let controller = FrontController(bus: bus, objects: try registry())
        #expect(throws: ControlError.unknownObjectName(name: "SaveNoteBCO", command: "addNote", kind: .business)) {
            try controller.map(.business, command: "addNote", named: "SaveNoteBCO")
        }
        #expect("\(ControlError.unknownObjectName(name: "SaveNoteBCO", command: "addNote", kind: .business))"
            == "cannot map 'SaveNoteBCO' as business object of command 'addNote': no control object has that name")
        #expect(controller.commands.isEmpty)
    }

    @Test("mapping an object as a kind of the other family is an error; nothing is mapped")
    func kindMismatch() throws {
        let controller = FrontController(bus: bus, objects: try registry())
        #expect(throws: ControlError.kindMismatch(name: "ShowMessageView", command: "addNote", kind: .business)) {
            try controller.map(.business, command: "addNote", named: "ShowMessageView")
        }
        #expect(throws: ControlError.kindMismatch(name: "SaveNoteBusiness", command: "addNote", kind: .view)) {
            try controller.map(.view, command: "addNote", named: "SaveNoteBusiness")
        }
        #expect(controller.commands.isEmpty)
    }

    @Test("registering a name twice is an error naming it")
    func duplicateName() throws {
        let objects = try registry()
        let trace = trace
        #expect(throws: ControlError.duplicateObjectName("SaveNoteBusiness")) {
            try objects.register(SaveNoteBusiness.self) { SaveNoteBusiness(trace: trace) }
        }
    }

    @Test("a configuration maps commands by name, in the order given")
    func configuration() async throws {
        let controller = FrontController(bus: bus, objects: try registry())
        try controller.apply(configuration: [
            "addNote": ["validation": ["NoteTitleValidation"], "business": ["SaveNoteBusiness", "SaveNoteBusiness"]],
            "invalidNote": ["error": ["ShowMessageView"]],
        ])

        _ = await controller.handleRequest("addNote", parameters: ["title": "Поэзия"])

        #expect(trace.all == ["NoteTitleValidation", "SaveNoteBusiness", "SaveNoteBusiness"])
        #expect(controller.commands == ["addNote", "invalidNote"])
    }

    static let badConfigurations: [(configuration: JSONValue, message: String)] = [
        (JSONValue.array([]), "control mapping configuration at notes.json: expected an object of commands"),
        (["addNote": "SaveNoteBusiness"], "control mapping configuration at notes.json.addNote: expected an object of kinds"),
        (["addNote": ["busines": ["SaveNoteBusiness"]]],
         "control mapping configuration at notes.json.addNote.busines: unknown kind 'busines' (expected one of security, validation, business, view, error)"),
        (["addNote": ["business": [1]]], "control mapping configuration at notes.json.addNote.business: expected an array of control object names"),
        (["addNote": ["validation": ["NoteTitleValidation"], "business": ["Missing"]]],
         "cannot map 'Missing' as business object of command 'addNote': no control object has that name"),
        (["addNote": ["view": ["SaveNoteBusiness"]]],
         "cannot map 'SaveNoteBusiness' as view object of command 'addNote': view needs a main-actor (view or error) control object"),
    ]

    @Test("a bad configuration is an error naming the entry, and maps nothing", arguments: badConfigurations)
    func badConfiguration(_ bad: (configuration: JSONValue, message: String)) throws {
        let controller = FrontController(bus: bus, objects: try registry())
        #expect { try controller.apply(configuration: bad.configuration, source: "notes.json") } throws: { error in
            "\(error)" == bad.message
        }
        #expect(controller.commands.isEmpty)
    }
}
