import Foundation
import Testing
import TrellisCore
import TrellisPlugins

/// A plugin process starts as any program does: no signal blocked. The shell's threads block
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
}
