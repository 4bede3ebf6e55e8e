import Foundation
import Logging
import Testing
@testable import TrellisCore
import TrellisTesting

@Suite("NetworkActivityService")
struct NetworkActivityServiceTests {
    let bus = EventBus()
    let observer = WatchOwner()
    let changes = Trace()

    /// Starts a service on `bus` and records every `activity:changed` as "active/count".
    func startService(logger: Logger? = nil) throws -> NetworkActivityService {
        let service = logger.map(NetworkActivityService.init(logger:)) ?? NetworkActivityService()
        try service.start(options: .null, bus: bus)
        bus.watch(NetworkActivityService.activityChanged, owner: observer) { [changes] event in
            changes.record("\(event.data["active"]?.boolValue ?? false)/\(event.data["count"]?.intValue ?? -1)")
        }
        return service
    }

    @Test("is registered as net_state")
    func name() {
        #expect(NetworkActivityService.name == "net_state")
    }

    @Test("counts network:on and network:off")
    func counts() throws {
        let service = try startService()
        bus.trigger("network:on")
        bus.trigger("network:on")
        #expect(service.count == 2)
        #expect(service.isActive)
        bus.trigger("network:off")
        #expect(service.count == 1)
        bus.trigger("network:off")
        #expect(service.count == 0)
        #expect(!service.isActive)
    }

    @Test("activity:changed is triggered only when the visible state flips")
    func publishesFlipsOnly() throws {
        let service = try startService()
        for message in ["network:on", "network:on", "network:off", "network:off", "network:on"] {
            bus.trigger(message)
        }
        #expect(changes.all == ["true/1", "false/0", "true/1"])
        #expect(service.count == 1)
    }

    @Test("a stray network:off at zero is logged as a warning and ignored")
    func strayOffIsIgnored() throws {
        let capture = LogCapture()
        let service = try startService(logger: capture.logger())
        bus.trigger("network:off")
        #expect(service.count == 0)
        #expect(changes.all.isEmpty)
        #expect(capture.entries.contains { $0.level == .warning && $0.message.contains("network:off") })
        bus.trigger("network:on")
        #expect(changes.all == ["true/1"])
    }

    @Test("under the registry: started by name, and stopping it ends its watches and hides the indicator")
    func underRegistry() throws {
        let registry = ServiceRegistry(bus: bus)
        try registry.register(NetworkActivityService.name) { NetworkActivityService() }
        try registry.start(NetworkActivityService.name)
        bus.watch(NetworkActivityService.activityChanged, owner: observer) { [changes] event in
            changes.record("\(event.data["active"]?.boolValue ?? false)")
        }
        bus.trigger("network:on")
        try registry.stop(NetworkActivityService.name)
        bus.trigger("network:on")

        #expect(changes.all == ["true", "false"])
        #expect(bus.watchCount == 1)
    }

    @Test("activity reported from many threads ends at zero with strictly alternating flips")
    func concurrentReports() throws {
        let service = try startService()
        DispatchQueue.concurrentPerform(iterations: 8) { _ in
            for _ in 0..<2_000 {
                bus.trigger("network:on")
                bus.trigger("network:off")
            }
        }
        #expect(service.count == 0)
        let flips = changes.all
        #expect(flips.last == "false/0")
        #expect(flips.enumerated().allSatisfy { index, flip in flip == (index % 2 == 0 ? "true/1" : "false/0") })
    }
}
