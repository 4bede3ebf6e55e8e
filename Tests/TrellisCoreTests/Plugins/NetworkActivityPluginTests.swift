import Foundation
import Testing
@testable import TrellisCore
import TrellisTesting

/// The NetworkActivity plugin, Trellis's `net_state` service, loaded from the build.
@Suite("NetworkActivity plugin")
struct NetworkActivityPluginTests {
    /// `net_state` running on a fresh bus, with every `activity:changed` recorded as "active/count".
    private struct Setup {
        let sandbox: PluginSandbox
        let harness: PluginHarness
        let changes: Trace

        init() throws {
            sandbox = try PluginSandbox()
            try sandbox.install("NetworkActivity")
            harness = PluginHarness(sandbox: sandbox)
            #expect(harness.host.loadAll()[id: "network-activity"]?.state == .loaded)
            changes = Trace()
            harness.bus.watch(NetworkActivity.changed, owner: changes) { log, event in
                log.record("\(event.data["active"]?.boolValue.map(String.init) ?? "?")/\(event.data["count"]?.intValue ?? -1)")
            }
        }

        func trigger(_ messages: String...) {
            for message in messages { harness.bus.trigger(message) }
        }
    }

    @Test("activity:changed is triggered only when the visible state flips")
    func publishesFlipsOnly() throws {
        let setup = try Setup()
        setup.trigger("network:on", "network:on", "network:off", "network:off", "network:on")
        #expect(setup.changes.all == ["true/1", "false/0", "true/1"])
    }

    @Test("a stray network:off at zero is logged as a warning and ignored")
    func strayOffIsIgnored() throws {
        let setup = try Setup()
        setup.trigger("network:off")
        #expect(setup.changes.all.isEmpty)
        #expect(setup.harness.logs.entries.contains { $0.level == .warning && $0.message.contains("network:off") })
        setup.trigger("network:on")
        #expect(setup.changes.all == ["true/1"])
    }

    @Test("stopping while active hides the indicator, and a stopped service no longer counts")
    func stopHidesIndicator() throws {
        let setup = try Setup()
        setup.trigger("network:on", "network:on")
        try setup.harness.services.stop("net_state")
        setup.trigger("network:on")
        #expect(setup.changes.all == ["true/1", "false/0"])
    }

    @Test("restarted, it counts from zero again")
    func restartCountsFromZero() throws {
        let setup = try Setup()
        setup.trigger("network:on")
        try setup.harness.services.stop("net_state")
        try setup.harness.services.start("net_state")
        setup.trigger("network:on", "network:off")
        #expect(setup.changes.all == ["true/1", "false/0", "true/1", "false/0"])
    }

    @Test("activity reported from many threads ends at zero with strictly alternating flips")
    func concurrentReports() throws {
        let setup = try Setup()
        DispatchQueue.concurrentPerform(iterations: 8) { _ in
            for _ in 0..<500 { setup.trigger("network:on", "network:off") }
        }
        let flips = setup.changes.all
        #expect(flips.last == "false/0")
        #expect(flips.enumerated().allSatisfy { index, flip in flip == (index % 2 == 0 ? "true/1" : "false/0") })
    }

    @Test("a watcher of activity:changed may report activity itself: its flip follows, in order")
    func reentrantReport() throws {
        let setup = try Setup()
        let reported = LockedState(false)
        setup.harness.bus.watch(NetworkActivity.changed, owner: setup.changes) { _, event in
            guard event.data["active"] == false, !reported.withLock({ $0 }) else { return }
            reported.withLock { $0 = true }
            setup.harness.bus.trigger("network:on")
        }
        setup.trigger("network:on", "network:off")
        #expect(setup.changes.all == ["true/1", "false/0", "true/1"])
        setup.trigger("network:off")
        #expect(setup.changes.all == ["true/1", "false/0", "true/1", "false/0"])
    }

    @Test("a watcher of activity:changed may wait for another thread that reports activity")
    func watcherWaitsForAnotherThread() throws {
        let setup = try Setup()
        let waited = LockedState<DispatchTimeoutResult?>(nil)
        setup.harness.bus.watch(NetworkActivity.changed, owner: setup.changes) { _, event in
            guard event.data["active"] == true else { return }
            let done = DispatchSemaphore(value: 0)
            Thread.detachNewThread {
                setup.harness.bus.trigger("network:off")
                done.signal()
            }
            // A deadlock guard, not a measurement: the other thread never waits for this one.
            let result = done.wait(timeout: .now() + 120)
            waited.withLock { $0 = result }
        }
        setup.trigger("network:on")
        #expect(waited.withLock { $0 } == .success, "the other thread's report waited for this watcher")
        #expect(setup.changes.all == ["true/1", "false/0"])
    }
}
