import Foundation
import Testing
@testable import TrellisCore
import TrellisTesting

/// A typed command of these tests: renaming a genre of the catalog.
struct RenameGenre: Command, Equatable {
    static let name = "genre.rename"
    var id: UUID
    var title: String
    var aliases: [String] = []
}

/// A command that cannot be encoded when its weight is not a finite number.
struct WeighGenre: Command {
    static let name = "genre.weigh"
    var weight: Double
}

@Suite("FrontController typed commands")
struct TypedCommandTests {
    let bus = EventBus()
    let trace = Trace()
    let logs = LogCapture()
    let rename = RenameGenre(id: UUID(), title: "Фэнтези", aliases: ["fantasy"])

    func controller() -> FrontController {
        let controller = FrontController(bus: bus, logger: logs.logger())
        let trace = trace
        controller.mapBusiness(RenameGenre.name) { ProbeReader<RenameGenre>(label: "rename", trace: trace) }
        controller.mapError(RenameGenre.name) { ProbeView("rename-error", trace, result: .stop) }
        return controller
    }

    @Test("a typed submit runs the command's stack with its properties as parameters, read back as the same value")
    func typedRoundTrip() async throws {
        let controller = controller()

        let outcome = await controller.submit(rename, from: nil).outcome

        #expect(trace.all == ["rename \(rename)"])
        #expect(outcome.parameters == ["id": .string(rename.id.uuidString), "title": "Фэнтези", "aliases": ["fantasy"]])
        #expect(try ControlRequest(command: RenameGenre.name, parameters: outcome.parameters ?? [:])
            .command(as: RenameGenre.self) == rename)
    }

    @Test("the string form reads as the typed command, and string readers see a typed submit's parameters")
    func stringFormBesideTyped() async {
        let controller = controller()
        let trace = trace
        controller.mapView(RenameGenre.name) { ProbeView("show", trace) }

        let byName = await controller.handleRequest(
            "genre.rename", parameters: ["id": .string(rename.id.uuidString), "title": "Фэнтези", "aliases": ["fantasy"]])
        let typed = await controller.handleRequest(rename, from: nil)

        #expect(byName.isCompleted && typed.isCompleted)
        #expect(trace.all == [
            "rename \(rename)", #"show main=true keys=["aliases", "id", "title"]"#,
            "rename \(rename)", #"show main=true keys=["aliases", "id", "title"]"#,
        ])
    }

    @Test("a command mapped by name from a configuration, with default objects, runs for a typed submit")
    func configurationAndDefault() async throws {
        let objects = ControlObjectRegistry()
        let trace = trace
        try objects.register(ProbeReader<RenameGenre>.self, name: "RenameGenreBusiness") {
            ProbeReader(label: "rename", trace: trace)
        }
        let controller = FrontController(bus: bus, objects: objects, logger: logs.logger())
        controller.mapSecurity(FrontController.defaultCommand) { ProbeStep(label: "default-security", trace: trace) }
        try controller.apply(configuration: ["genre.rename": ["business": ["RenameGenreBusiness"]]])

        let outcome = await controller.handleRequest(rename, from: nil)

        #expect(outcome.isCompleted)
        #expect(trace.labels == ["default-security", "rename"])
    }

    @Test("parameters that do not read as the command reach its error objects, naming command, parameter and type",
          arguments: [
              (["title": 5, "aliases": []], "title", "parameter 'title' should be String, but it is 5"),
              (["aliases": []], "title", "parameter 'title' is missing"),
              (["title": nil, "aliases": []], "title", "parameter 'title' should be String, but it is null"),
              (["title": "Фэнтези", "aliases": ["fantasy", 3]], "aliases[1]",
               "parameter 'aliases[1]' should be String, but it is 3"),
          ] as [([String: JSONValue], String, String)])
    func malformedParameters(parameters: [String: JSONValue], parameter: String, message: String) async {
        let controller = controller()
        let log = LifecycleLog(bus: bus)
        var parameters = parameters
        parameters["id"] = .string(rename.id.uuidString)

        let outcome = await controller.handleRequest("genre.rename", parameters: parameters)

        let reason = "command 'genre.rename': \(message)"
        #expect(trace.all == ["rename-error main=true keys=\(parameters.keys.sorted()) failure=genre.rename/business/\(reason)"])
        guard case .failed(let failure, handled: true) = outcome else { Issue.record("expected a handled failure"); return }
        #expect(failure.underlying as? ControlError == .malformedParameters(
            command: "genre.rename", parameter: parameter, reason: String(message.dropFirst("parameter '\(parameter)' ".count))))
        #expect(log.all.last == "request:validation-failed genre.rename errorCommand=genre.rename handled=true "
            + "object=ProbeReader<RenameGenre> reason=\(reason) stage=business")
    }

    @Test("an invalid value names the parameter, the value and the type Foundation expected")
    func invalidValue() async {
        let controller = controller()

        let outcome = await controller.handleRequest("genre.rename", parameters: ["id": "5", "title": "Фэнтези", "aliases": []])

        let reason = outcome.failure?.reason ?? ""
        #expect(reason.hasPrefix(#"command 'genre.rename': parameter 'id' is "5": "#), "\(reason)")
        #expect(reason.contains("UUID"), "\(reason)")
    }

    @Test("without error objects of its own, malformed parameters reach the default error objects")
    func malformedReachesDefaultErrorObjects() async {
        let controller = FrontController(bus: bus, logger: logs.logger())
        let trace = trace
        controller.mapBusiness(RenameGenre.name) { ProbeReader<RenameGenre>(label: "rename", trace: trace) }
        controller.mapError(FrontController.defaultCommand) { ProbeView("default-error", trace) }

        let outcome = await controller.handleRequest("genre.rename", parameters: ["title": "Фэнтези"])

        #expect(trace.labels == ["default-error"])
        #expect(outcome.failure?.reason == "command 'genre.rename': parameter 'id' is missing")
    }

    @Test("a command that cannot be encoded runs none of its stack; its error objects get the failure")
    func unencodableCommand() async {
        let controller = FrontController(bus: bus, logger: logs.logger())
        let trace = trace
        let log = LifecycleLog(bus: bus)
        controller.mapBusiness(WeighGenre.name) { ProbeStep(label: "weigh", trace: trace) }
        controller.mapError(WeighGenre.name) { ProbeView("weigh-error", trace) }

        let outcome = await controller.submit(WeighGenre(weight: .nan), from: nil).outcome

        #expect(trace.labels == ["weigh-error"])
        guard case .failed(let failure, handled: true) = outcome else { Issue.record("expected a handled failure"); return }
        #expect(failure.stage == nil)
        #expect(failure.reason.hasPrefix("command 'genre.weigh' cannot be encoded as parameters: "), "\(failure.reason)")
        #expect(log.all.first == "request:started genre.weigh")
        #expect(log.all.last?.hasPrefix("request:failed genre.weigh errorCommand=genre.weigh handled=true reason=") == true)
    }
}
