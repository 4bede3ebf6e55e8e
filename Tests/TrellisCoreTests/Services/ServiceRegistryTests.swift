import Dispatch
import Testing
@testable import TrellisCore
import TrellisTesting

@Suite("ServiceRegistry")
struct ServiceRegistryTests {
    let bus = EventBus()

    @Test("start makes one instance and passes it the options and the bus")
    func startPassesOptionsAndBus() throws {
        let registry = ServiceRegistry(bus: bus)
        let factory = ProbeFactory()
        try registry.register("probe") { factory.make() }
        #expect(!registry.isRunning("probe"))
        #expect(factory.count == 0)

        try registry.start("probe", options: ["verbose": true])

        #expect(registry.isRunning("probe"))
        #expect(factory.last?.calls.withLock { $0 } == [#"start {"verbose":true}"#])
        bus.trigger("probe:ping")
        #expect(factory.last?.pings.withLock { $0 } == 1)
    }

    @Test("a second start is a no-op")
    func secondStartIsNoOp() throws {
        let registry = ServiceRegistry(bus: bus)
        let factory = ProbeFactory()
        try registry.register("probe") { factory.make() }
        try registry.start("probe")
        try registry.start("probe", options: ["again": true])
        #expect(factory.count == 1)
        #expect(factory.last?.calls.withLock { $0 } == ["start null"])
    }

    @Test("an unknown name is an error naming it, for start and for stop")
    func unknownName() {
        let registry = ServiceRegistry(bus: bus)
        #expect { try registry.start("ghost") } throws: { error in
            guard case ServiceError.unknown("ghost") = error else { return false }
            return "\(error)" == "no service named 'ghost' is registered"
        }
        #expect { try registry.stop("ghost") } throws: { error in
            if case ServiceError.unknown("ghost") = error { return true } else { return false }
        }
        #expect(!registry.isRunning("ghost"))
    }

    @Test("registering a taken name is an error naming the service and both owners")
    func duplicateRegistration() throws {
        let registry = ServiceRegistry(bus: bus)
        try registry.register("net_state") { ProbeService() }
        #expect { try registry.register("net_state", owner: "org.example.net") { ProbeService() } } throws: { error in
            let text = "\(error)"
            return text.contains("'net_state'") && text.contains("'host'") && text.contains("'org.example.net'")
        }
        #expect(registry.services.count == 1)
    }

    @Test("a start that throws is an error naming the service; it stays stopped with no watches")
    func failingStart() throws {
        let capture = LogCapture()
        let registry = ServiceRegistry(bus: bus, logger: capture.logger())
        let factory = ProbeFactory { ProbeService(fails: true) }
        try registry.register("flaky", owner: "org.example.flaky") { factory.make() }

        #expect { try registry.start("flaky") } throws: { error in
            guard case ServiceError.startFailed(name: "flaky", owner: "org.example.flaky", _) = error else { return false }
            return "\(error)".contains("probe refused to start")
        }

        #expect(!registry.isRunning("flaky"))
        #expect(bus.watchCount == 0)
        #expect(throws: ServiceError.self) { try registry.start("flaky") }
        #expect(factory.count == 2)
        #expect(capture.entries.filter { $0.level == .error && $0.message.contains("'flaky'") }.count == 2)
    }

    @Test("stop calls the service's stop with the options and ends its watches")
    func stopEndsWatches() throws {
        let registry = ServiceRegistry(bus: bus)
        let factory = ProbeFactory()
        try registry.register("probe") { factory.make() }
        try registry.start("probe")
        let probe = try #require(factory.last)
        #expect(bus.watchCount(owner: probe) == 1)

        try registry.stop("probe", options: ["reason": "quit"])
        bus.trigger("probe:ping")

        #expect(!registry.isRunning("probe"))
        #expect(probe.calls.withLock { $0 } == ["start null", #"stop {"reason":"quit"}"#])
        #expect(bus.watchCount(owner: probe) == 0)
        #expect(probe.pings.withLock { $0 } == 0)
    }

    @Test("stopping a stopped service is a no-op; starting again makes a fresh instance")
    func stopThenRestart() throws {
        let registry = ServiceRegistry(bus: bus)
        let factory = ProbeFactory()
        try registry.register("probe") { factory.make() }
        try registry.stop("probe")
        try registry.start("probe")
        let first = factory.last
        try registry.stop("probe")
        try registry.stop("probe")
        try registry.start("probe")
        #expect(factory.count == 2)
        #expect(factory.last !== first)
        #expect(first?.calls.withLock { $0 } == ["start null", "stop null"])
    }

    @Test("services lists every registration in order with its owner and state")
    func servicesList() throws {
        let registry = ServiceRegistry(bus: bus)
        try registry.register("b") { ProbeService() }
        try registry.register("a", owner: "org.example.a") { ProbeService() }
        try registry.start("a")
        #expect(registry.services == [
            ServiceInfo(name: "b", owner: "host", isRunning: false),
            ServiceInfo(name: "a", owner: "org.example.a", isRunning: true),
        ])
    }

    @Test("a service may start another service from its own start")
    func nestedStart() throws {
        final class Starter: Service {
            let registry: ServiceRegistry
            init(registry: ServiceRegistry) { self.registry = registry }
            func start(options: JSONValue, bus: EventBus) throws { try registry.start("probe") }
            func stop(options: JSONValue) {}
        }
        let registry = ServiceRegistry(bus: bus)
        try registry.register("probe") { ProbeService() }
        try registry.register("starter") { [registry] in Starter(registry: registry) }
        try registry.start("starter")
        #expect(registry.isRunning("starter"))
        #expect(registry.isRunning("probe"))
    }

    @Test("stopping a service another thread is starting is refused as busy, naming it")
    func stopWhileStartingIsBusy() throws {
        let registry = ServiceRegistry(bus: bus)
        let gate = (entered: DispatchSemaphore(value: 0), release: DispatchSemaphore(value: 0))
        try registry.register("slow") { ProbeService(gate: gate) }
        let done = DispatchSemaphore(value: 0)
        DispatchQueue.global().async {
            try? registry.start("slow")
            done.signal()
        }
        gate.entered.wait()

        #expect { try registry.stop("slow") } throws: { error in
            "\(error)" == "service 'slow' is starting on another thread; try again when it is done"
        }
        try registry.start("slow")

        gate.release.signal()
        done.wait()
        #expect(registry.isRunning("slow"))
    }
}
