import Foundation
import Testing
@testable import TrellisPlugins
import TrellisCore
import TrellisTesting

/// The request the CHello plugin sends by name (`hello.greet {"who": …}`), as a typed command.
struct GreetCommand: Command {
    static let name = "hello.greet"
    var who: String
}

/// Records the request it handles, read as a ``GreetCommand``.
struct GreetReader: ControlObject {
    let trace: Trace

    func handle(_ request: inout ControlRequest) async throws -> ControlResult {
        trace.record("greet \(try request.command(as: GreetCommand.self))")
        return .continue
    }
}

@Suite("FrontController typed commands from a plugin")
struct TypedCommandPluginTests {
    @Test("a plugin's request by name maps to the command's stack and reads as the typed command")
    func pluginStringRequest() async throws {
        let sandbox = try PluginSandbox()
        try sandbox.install("CHello") { $0["routes"] = nil }
        let bus = EventBus()
        let logs = LogCapture()
        let trace = Trace()
        let controller = FrontController(bus: bus, logger: logs.logger())
        controller.mapBusiness(GreetCommand.name) { GreetReader(trace: trace) }
        let host = PluginHost(
            bus: bus, services: ServiceRegistry(bus: bus, logger: logs.logger(label: "trellis.services")),
            searchPaths: [PluginSearchPath(directory: sandbox.root, origin: .commandLine)],
            settings: PluginSettings(url: sandbox.settingsURL), deadlines: .forTests,
            environment: sandbox.environment,
            navigate: { _ in },
            handleRequest: { command, parameters in _ = controller.submit(command, parameters: parameters.objectValue ?? [:]) },
            logger: logs.logger(label: "trellis.plugins"))
        let reports = await host.loadAll()
        #expect(reports[id: "c-hello"]?.state == .loaded)

        bus.trigger("hello:request", ["who": "world"])

        #expect(await eventually { trace.all == [#"greet GreetCommand(who: "world")"#] }, "\(trace.all)")
    }
}
