import Dispatch
import Testing
@testable import TrellisCore
import TrellisTesting

@Suite("ServiceRegistry")
struct ServiceRegistryTests {
    let bus = EventBus()

    @Test("start makes one instance and passes it the options and the bus")
    func startPassesOptionsAndBus() async throws {
        let registry = ServiceRegistry(bus: bus)
        let factory = ProbeFactory()
        try registry.register("probe") { factory.make() }
        #expect(!registry.isRunning("probe"))
        #expect(factory.count == 0)

        try await registry.start("probe", options: ["verbose": true])

        #expect(registry.isRunning("probe"))
        #expect(factory.last?.calls.withLock { $0 } == [#"start {"verbose":true}"#])
        bus.trigger("probe:ping")
        #expect(factory.last?.pings.withLock { $0 } == 1)
    }

    @Test("a second start is a no-op")
    func secondStartIsNoOp() async throws {
        let registry = ServiceRegistry(bus: bus)
        let factory = ProbeFactory()
        try registry.register("probe") { factory.make() }
        try await registry.start("probe")
        try await registry.start("probe", options: ["again": true])
        #expect(factory.count == 1)
        #expect(factory.last?.calls.withLock { $0 } == ["start null"])
    }

    @Test("an unknown name is an error naming it, for start and for stop")
    func unknownName() async {
        let registry = ServiceRegistry(bus: bus)
        await #expect { try await registry.start("ghost") } throws: { error in
            guard case ServiceError.unknown("ghost") = error else { return false }
            return "\(error)" == "no service named 'ghost' is registered"
        }
        await #expect { try await registry.stop("ghost") } throws: { error in
            if case ServiceError.unknown("ghost") = error { return true } else { return false }
        }
        #expect(!registry.isRunning("ghost"))
    }

    @Test("registering a taken name is an error naming the service and both owners")
    func duplicateRegistration() async throws {
        let registry = ServiceRegistry(bus: bus)
        try registry.register("net_state") { ProbeService() }
        #expect { try registry.register("net_state", owner: "org.example.net") { ProbeService() } } throws: { error in
            let text = "\(error)"
            return text.contains("'net_state'") && text.contains("'host'") && text.contains("'org.example.net'")
        }
        #expect(registry.services.count == 1)
    }

    @Test("a start that throws is an error naming the service; it stays stopped with no watches")
    func failingStart() async throws {
        let capture = LogCapture()
        let registry = ServiceRegistry(bus: bus, logger: capture.logger())
        let factory = ProbeFactory { ProbeService(fails: true) }
        try registry.register("flaky", owner: "org.example.flaky") { factory.make() }

        await #expect { try await registry.start("flaky") } throws: { error in
            guard case ServiceError.startFailed(name: "flaky", owner: "org.example.flaky", _) = error else { return false }
            return "\(error)".contains("probe refused to start")
        }

        #expect(!registry.isRunning("flaky"))
        #expect(bus.watchCount == 0)
        await #expect(throws: ServiceError.self) { try await registry.start("flaky") }
        #expect(factory.count == 2)
        #expect(capture.entries.filter { $0.level == .error && $0.message.contains("'flaky'") }.count == 2)
    }

    @Test("stop calls the service's stop with the options and ends its watches")
    func stopEndsWatches() async throws {
        let registry = ServiceRegistry(bus: bus)
        let factory = ProbeFactory()
        try registry.register("probe") { factory.make() }
        try await registry.start("probe")
        let probe = try #require(factory.last)
        #expect(bus.watchCount(owner: probe) == 1)

        try await registry.stop("probe", options: ["reason": "quit"])
        bus.trigger("probe:ping")

        #expect(!registry.isRunning("probe"))
        #expect(probe.calls.withLock { $0 } == ["start null", #"stop {"reason":"quit"}"#])
        #expect(bus.watchCount(owner: probe) == 0)
        #expect(probe.pings.withLock { $0 } == 0)
    }

    @Test("stopping a stopped service is a no-op; starting again makes a fresh instance")
    func stopThenRestart() async throws {
        let registry = ServiceRegistry(bus: bus)
        let factory = ProbeFactory()
        try registry.register("probe") { factory.make() }
        try await registry.stop("probe")
        try await registry.start("probe")
        let first = factory.last
        try await registry.stop("probe")
        try await registry.stop("probe")
        try await registry.start("probe")
        #expect(factory.count == 2)
        #expect(factory.last !== first)
        #expect(first?.calls.withLock { $0 } == ["start null", "stop null"])
    }

    @Test("services lists every registration in order with its owner and state")
    func servicesList() async throws {
        let registry = ServiceRegistry(bus: bus)
        try registry.register("b") { ProbeService() }
        try registry.register("a", owner: "org.example.a") { ProbeService() }
        try await registry.start("a")
        #expect(registry.services == [
            ServiceInfo(name: "b", owner: "host", isRunning: false),
            ServiceInfo(name: "a", owner: "org.example.a", isRunning: true),
        ])
    }

    @Test("a service may start another service from its own start")
    func nestedStart() async throws {
        final class Starter: Service {
            let registry: ServiceRegistry
            init(registry: ServiceRegistry) { self.registry = registry }
            func start(options: JSONValue, bus: EventBus) async throws { try await registry.start("probe") }
            func stop(options: JSONValue) {}
        }
        let registry = ServiceRegistry(bus: bus)
        try registry.register("probe") { ProbeService() }
        try registry.register("starter") { [registry] in Starter(registry: registry) }
        try await registry.start("starter")
        #expect(registry.isRunning("starter"))
        #expect(registry.isRunning("probe"))
    }

    @Test("stopping a service while it starts is refused as busy, naming it")
    func stopWhileStartingIsBusy() async throws {
        let registry = ServiceRegistry(bus: bus)
        let gate = (entered: DispatchSemaphore(value: 0), release: DispatchSemaphore(value: 0))
        try registry.register("slow") { ProbeService(gate: gate) }
        let starting = Task { try await registry.start("slow") }
        await withCheckedContinuation { entered in
            DispatchQueue.global().async {
                gate.entered.wait()
                entered.resume()
            }
        }

        await #expect { try await registry.stop("slow") } throws: { error in
            "\(error)" == "service 'slow' is starting; try again when that is done"
        }
        try await registry.start("slow")

        gate.release.signal()
        try await starting.value
        #expect(registry.isRunning("slow"))
    }
}
