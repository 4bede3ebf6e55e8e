import Foundation
import Testing
import TrellisCore
import TrellisPlugins

/// A plugin process starts as any program does: no signal blocked, none ignored. The shell's threads block
/// most signals (libdispatch's workers do, and a thread inherits its creator's mask), and a
/// process started with `posix_spawn` inherits the mask of the thread that started it. Without
/// care, a plugin's `alarm`, a SIGTERM it sends to a program it runs, and a SIGTERM sent to it
/// would all wait, blocked, for ever.
@Suite("plugin processes and signals")
struct PluginProcessSignalTests {
    @Test("a plugin's process starts with no signal blocked, whichever thread of the shell started it")
    func noSignalBlocked() async throws {
        let sandbox = try PluginSandbox()
        let harness = try await PluginAttackTests.load("signaller", sandbox: sandbox)
        let answer = try await PluginAttackTests.attempt(harness, "signaller", "signals")
        #expect(answer["ok"] == true)
        #expect(answer["text"]?.stringValue == "", "blocked in the plugin's process: signals \(answer["text"]?.stringValue ?? "?")")
    }

    /// An ignored signal stays ignored across `exec`: a program the plugin runs would inherit
    /// it. The plugin host catches SIGPIPE instead (a write to a closed pipe fails with EPIPE
    /// in the plugin, and `exec` resets a caught signal to its default).
    @Test("a plugin's process ignores no signal, so a program it runs starts with each at its default")
    func noSignalIgnored() async throws {
        let sandbox = try PluginSandbox()
        let harness = try await PluginAttackTests.load("signaller", sandbox: sandbox)
        let answer = try await PluginAttackTests.attempt(harness, "signaller", "ignored")
        #expect(answer["ok"] == true)
        #expect(answer["text"]?.stringValue == "", "ignored in the plugin's process: signals \(answer["text"]?.stringValue ?? "?")")
        let pipe = try await PluginAttackTests.attempt(harness, "signaller", "brokenpipe")
        #expect(pipe["ok"] == true, "a write to a closed pipe fails with EPIPE and the plugin answers: \(pipe)")
    }
}
