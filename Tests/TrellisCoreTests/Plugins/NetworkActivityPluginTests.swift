import Foundation
import Testing
@testable import TrellisCore
import TrellisTesting

/// The NetworkActivity plugin behaves exactly like the host's built-in `NetworkActivityService`:
/// every test runs against both.
@Suite("NetworkActivity plugin")
struct NetworkActivityPluginTests {
    enum Implementation: String, CaseIterable, CustomTestStringConvertible {
        case builtIn = "built-in"
        case plugin

        var testDescription: String { rawValue }
    }

    /// `net_state` running on a fresh bus, from the plugin or the built-in, with every
    /// `activity:changed` recorded as "active/count".
    private struct Setup {
        let sandbox: PluginSandbox
        let harness: PluginHarness
        let changes: Trace

        init(_ implementation: Implementation) throws {
            sandbox = try PluginSandbox()
            switch implementation {
            case .plugin:
                try sandbox.install("NetworkActivity")
                harness = PluginHarness(sandbox: sandbox)
                #expect(harness.host.loadAll()[id: "network-activity"]?.state == .loaded)
            case .builtIn:
                harness = PluginHarness(sandbox: sandbox)
                let logger = harness.logs.logger(label: "trellis.services.net_state")
                try harness.services.register("net_state") { NetworkActivityService(logger: logger) }
                try harness.services.start("net_state")
            }
            changes = Trace()
            harness.bus.watch("activity:changed", owner: changes) { log, event in
                log.record("\(event.data["active"]?.boolValue.map(String.init) ?? "?")/\(event.data["count"]?.intValue ?? -1)")
            }
        }

        func trigger(_ messages: String...) {
            for message in messages { harness.bus.trigger(message) }
        }
    }

    @Test("activity:changed is triggered only when the visible state flips", arguments: Implementation.allCases)
    func publishesFlipsOnly(_ implementation: Implementation) throws {
        let setup = try Setup(implementation)
        setup.trigger("network:on", "network:on", "network:off", "network:off", "network:on")
        #expect(setup.changes.all == ["true/1", "false/0", "true/1"])
    }

    @Test("a stray network:off at zero is logged as a warning and ignored", arguments: Implementation.allCases)
    func strayOffIsIgnored(_ implementation: Implementation) throws {
        let setup = try Setup(implementation)
        setup.trigger("network:off")
        #expect(setup.changes.all.isEmpty)
        #expect(setup.harness.logs.entries.contains { $0.level == .warning && $0.message.contains("network:off") })
        setup.trigger("network:on")
        #expect(setup.changes.all == ["true/1"])
    }

    @Test("stopping while active hides the indicator, and a stopped service no longer counts", arguments: Implementation.allCases)
    func stopHidesIndicator(_ implementation: Implementation) throws {
        let setup = try Setup(implementation)
        setup.trigger("network:on", "network:on")
        try setup.harness.services.stop("net_state")
        setup.trigger("network:on")
        #expect(setup.changes.all == ["true/1", "false/0"])
    }

    @Test("restarted, it counts from zero again", arguments: Implementation.allCases)
    func restartCountsFromZero(_ implementation: Implementation) throws {
        let setup = try Setup(implementation)
        setup.trigger("network:on")
        try setup.harness.services.stop("net_state")
        try setup.harness.services.start("net_state")
        setup.trigger("network:on", "network:off")
        #expect(setup.changes.all == ["true/1", "false/0", "true/1", "false/0"])
    }

    @Test("activity reported from many threads ends at zero with strictly alternating flips", arguments: Implementation.allCases)
    func concurrentReports(_ implementation: Implementation) throws {
        let setup = try Setup(implementation)
        DispatchQueue.concurrentPerform(iterations: 8) { _ in
            for _ in 0..<500 { setup.trigger("network:on", "network:off") }
        }
        let flips = setup.changes.all
        #expect(flips.last == "false/0")
        #expect(flips.enumerated().allSatisfy { index, flip in flip == (index % 2 == 0 ? "true/1" : "false/0") })
    }
}
