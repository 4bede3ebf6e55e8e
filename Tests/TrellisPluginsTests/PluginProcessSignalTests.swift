import Foundation
import Testing
import TrellisCore
import TrellisPlugins

/// A plugin process starts as any program does: no signal blocked, none ignored. The shell's
/// threads block most signals (libdispatch's workers do, and a thread inherits its creator's
/// mask), and a process started with `posix_spawn` inherits the mask of the thread that started
/// it. Without care, a plugin's `alarm`, a SIGTERM it sends to a program it runs, and a SIGTERM
/// sent to it would all wait, blocked, for ever. An ignored signal stays ignored across `exec`:
/// a program the plugin runs would inherit it. The plugin host catches SIGPIPE instead of
/// ignoring it (a write to a closed pipe fails with EPIPE in the plugin, and `exec` resets a
/// caught signal to its default).
@Suite("plugin processes and signals")
struct PluginProcessSignalTests {
    /// The attack plugin's answer to `query`, asked of a new plugin process.
    private func ask(_ query: String) async throws -> JSONValue {
        let sandbox = try PluginSandbox()
        let harness = try await PluginAttackTests.load("signaller", sandbox: sandbox)
        return try await PluginAttackTests.attempt(harness, "signaller", query)
    }

    @Test("a plugin's process has no signal blocked (signals) and none ignored (ignored), whichever thread of the shell started it",
          arguments: ["signals", "ignored"])
    func noSignalBlockedOrIgnored(query: String) async throws {
        let answer = try await ask(query)
        #expect(answer["ok"] == true)
        #expect(answer["text"]?.stringValue == "", "\(query) in the plugin's process: \(answer["text"]?.stringValue ?? "?")")
    }

    @Test("a plugin's write to a closed pipe fails with EPIPE, and the plugin answers")
    func brokenPipe() async throws {
        let answer = try await ask("brokenpipe")
        #expect(answer["ok"] == true, "\(answer)")
    }
}
