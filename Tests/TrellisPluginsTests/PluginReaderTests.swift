import Foundation
import Testing
@testable import TrellisPlugins
import TrellisCore
import TrellisTesting

/// The thread that reads a plugin process's socket handles what the plugin sends itself when
/// nothing else is waiting (see `PluginInbox`): no hand-off to another thread. These tests
/// pin what that must not break: a watcher running on that thread may call the same plugin
/// and wait for its answer, and a watcher stuck there must not keep another thread's answer
/// from being read. Without the hand-over of the reading, each would wait out a deadline and
/// the plugin would be killed as unresponsive.
@Suite("Plugin process: the reader thread", .serialized)
struct PluginReaderTests {
    /// The C plugin c-hello in a process of its own, its service started, and a recorder of
    /// plugin:crashed (the sandbox, which removes its folder when released, with them).
    private static func helloInAProcess() async throws -> (PluginSandbox, PluginHarness, EventRecorder) {
        let sandbox = try PluginSandbox()
        try sandbox.install("CHello")
        let harness = PluginHarness(sandbox: sandbox, isolation: .process)
        #expect(await harness.load()[id: "c-hello"]?.state == .loaded)
        try await harness.start("c_hello", options: ["greeting": "bonjour"])
        return (sandbox, harness, EventRecorder(bus: harness.bus, pattern: "plugin:crashed"))
    }

    @Test("a watcher of a plugin's event may stop and start that plugin's service: both are answered, nothing is killed")
    func watcherCallsThePlugin() async throws {
        let (sandbox, harness, crashes) = try await Self.helloInAProcess()
        defer { withExtendedLifetime(sandbox) {} }
        let started = EventRecorder(bus: harness.bus, pattern: "hello:started")
        let outcome = LockedState<String?>(nil)
        let owner = Trace()
        let services = harness.services
        harness.bus.watch("hello:pong", owner: owner) { _, _ in
            guard outcome.withLock({ $0 == nil }) else { return }
            do {
                try services.stop("c_hello")
                try services.start("c_hello", options: ["greeting": "again"])
                outcome.withLock { $0 = "restarted" }
            } catch {
                outcome.withLock { $0 = "\(error)" }
            }
        }

        harness.bus.trigger("hello:ping")

        #expect(await eventually { outcome.withLock { $0 } != nil })
        #expect(outcome.withLock { $0 } == "restarted")
        #expect(try await started.wait(for: "hello:started").first?.data == ["greeting": "again"])
        #expect(harness.services.isRunning("c_hello"))
        #expect(crashes.all.isEmpty, "\(crashes.all)")
        #expect(harness.logs.messages(at: .error).isEmpty, "\(harness.logs.messages(at: .error))")
        // And it goes on answering.
        let pongs = EventRecorder(bus: harness.bus, pattern: "hello:pong")
        harness.bus.trigger("hello:ping", ["n": 2])
        #expect(try await pongs.wait(for: "hello:pong").first?.data == ["n": 2])
    }

    @Test("a watcher stuck on the reader thread while another thread waits for the plugin: that answer is read all the same")
    func stuckWatcher() async throws {
        let (sandbox, harness, crashes) = try await Self.helloInAProcess()
        defer { withExtendedLifetime(sandbox) {} }
        let entered = LockedState(false)
        let release = DispatchSemaphore(value: 0)
        let owner = Trace()
        // The watcher waits for the thread below, which waits for the plugin's answer.
        harness.bus.watch("hello:pong", owner: owner) { _, _ in
            guard !entered.withLock({ state in defer { state = true }; return state }) else { return }
            release.wait()
            // The rest of its work, while the thread below calls the plugin again: that call's
            // answer must not overtake what the plugin sent before it (its watches).
            Thread.sleep(forTimeInterval: 0.02)
        }
        harness.bus.trigger("hello:ping")
        #expect(await eventually { entered.withLock { $0 } })

        try await harness.stop("c_hello")
        release.signal()

        #expect(!harness.services.isRunning("c_hello"))
        #expect(crashes.all.isEmpty, "\(crashes.all)")
        #expect(harness.logs.messages(at: .error).isEmpty, "\(harness.logs.messages(at: .error))")
        try await harness.start("c_hello", options: ["greeting": "bonjour"])
        let pongs = EventRecorder(bus: harness.bus, pattern: "hello:pong")
        harness.bus.trigger("hello:ping", ["n": 3])
        #expect(try await pongs.wait(for: "hello:pong").first?.data == ["n": 3])
    }
}
