import Foundation
import Testing
@testable import TrellisPlugins
import TrellisCore
import TrellisTesting

/// The NetworkActivity plugin, Trellis's `net_state` service, loaded from the build, in each
/// isolation mode: in a process of its own, its flips arrive after `trigger` returns, so each
/// test waits for the flip its last event causes.
@Suite("NetworkActivity plugin")
struct NetworkActivityPluginTests {
    /// `net_state` running on a fresh bus, with every `activity:changed` recorded as "active/count".
    private struct Setup: Sendable {
        let sandbox: PluginSandbox
        let harness: PluginHarness
        let changes: Trace

        init(_ isolation: PluginIsolation) async throws {
            sandbox = try PluginSandbox()
            try sandbox.install("NetworkActivity")
            harness = PluginHarness(sandbox: sandbox, isolation: isolation)
            #expect(await harness.load()[id: "network-activity"]?.state == .loaded)
            changes = Trace()
            harness.bus.watch(NetworkActivity.changed, owner: changes) { log, event in
                log.record("\(event.data["active"]?.boolValue.map(String.init) ?? "?")/\(event.data["count"]?.intValue ?? -1)")
            }
        }

        func trigger(_ messages: String...) {
            for message in messages { harness.bus.trigger(message) }
        }

        /// The flips once there are at least `count`.
        func flips(_ count: Int) async throws -> [String] {
            try await changes.settled(count: count)
        }

        /// The stray-`network:off` warnings logged so far.
        var strayWarnings: Int {
            harness.logs.entries.filter { $0.level == .warning && $0.message.contains("network:off") }.count
        }

        /// With the count at zero: waits until the plugin has handled every event triggered so
        /// far, by sending a stray `network:off` and waiting for its warning (a plugin handles
        /// its events in order).
        func settle() async {
            let before = strayWarnings
            trigger("network:off")
            #expect(await eventually { strayWarnings > before }, "the plugin never answered the stray network:off")
        }
    }

    @Test("activity:changed is triggered only when the visible state flips", arguments: PluginIsolation.both)
    func publishesFlipsOnly(isolation: PluginIsolation) async throws {
        let setup = try await Setup(isolation)
        setup.trigger("network:on", "network:on", "network:off", "network:off", "network:on")
        #expect(try await setup.flips(3) == ["true/1", "false/0", "true/1"])
    }

    @Test("a stray network:off at zero is logged as a warning and ignored", arguments: PluginIsolation.both)
    func strayOffIsIgnored(isolation: PluginIsolation) async throws {
        let setup = try await Setup(isolation)
        await setup.settle()  // a stray network:off
        #expect(setup.changes.all.isEmpty)
        setup.trigger("network:on")
        #expect(try await setup.flips(1) == ["true/1"])
    }

    @Test("stopping while active hides the indicator, and a stopped service no longer counts", arguments: PluginIsolation.both)
    func stopHidesIndicator(isolation: PluginIsolation) async throws {
        let setup = try await Setup(isolation)
        setup.trigger("network:on", "network:on")
        try await setup.harness.stop("net_state")
        setup.trigger("network:on")
        try await setup.harness.start("net_state")
        await setup.settle()  // the network:on sent while stopped did not count
        #expect(setup.changes.all == ["true/1", "false/0"])
    }

    @Test("restarted, it counts from zero again", arguments: PluginIsolation.both)
    func restartCountsFromZero(isolation: PluginIsolation) async throws {
        let setup = try await Setup(isolation)
        setup.trigger("network:on")
        try await setup.harness.stop("net_state")
        try await setup.harness.start("net_state")
        setup.trigger("network:on", "network:off")
        #expect(try await setup.flips(4) == ["true/1", "false/0", "true/1", "false/0"])
    }

    // In a process, the plugin's flips are paced by its call budget (500 a second): fewer
    // reports keep the test short there.
    @Test("activity reported from many threads ends at zero with strictly alternating flips", arguments: PluginIsolation.both)
    func concurrentReports(isolation: PluginIsolation) async throws {
        let setup = try await Setup(isolation)
        let rounds = isolation == .process ? 20 : 500
        await offThePool {
            DispatchQueue.concurrentPerform(iterations: 8) { _ in
                for _ in 0..<rounds { setup.trigger("network:on", "network:off") }
            }
        }
        await setup.settle()
        let flips = setup.changes.all
        #expect(flips.last == "false/0")
        #expect(flips.enumerated().allSatisfy { index, flip in flip == (index % 2 == 0 ? "true/1" : "false/0") })
    }

    @Test("a watcher of activity:changed may report activity itself: its flip follows, in order", arguments: PluginIsolation.both)
    func reentrantReport(isolation: PluginIsolation) async throws {
        let setup = try await Setup(isolation)
        let reported = LockedState(false)
        setup.harness.bus.watch(NetworkActivity.changed, owner: setup.changes) { _, event in
            guard event.data["active"] == false, !reported.withLock({ $0 }) else { return }
            reported.withLock { $0 = true }
            setup.harness.bus.trigger("network:on")
        }
        setup.trigger("network:on", "network:off")
        #expect(try await setup.flips(3) == ["true/1", "false/0", "true/1"])
        setup.trigger("network:off")
        #expect(try await setup.flips(4) == ["true/1", "false/0", "true/1", "false/0"])
    }

    @Test("a watcher of activity:changed may wait for another thread that reports activity", arguments: PluginIsolation.both)
    func watcherWaitsForAnotherThread(isolation: PluginIsolation) async throws {
        let setup = try await Setup(isolation)
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
        #expect(try await setup.flips(2) == ["true/1", "false/0"])
        #expect(waited.withLock { $0 } == .success, "the other thread's report waited for this watcher")
    }
}
