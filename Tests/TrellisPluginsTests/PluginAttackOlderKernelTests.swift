import Foundation
import Testing
@testable import TrellisPlugins
import TrellisCore
import TrellisTesting

/// The attacks of ``PluginAttackTests`` on Debian 12's kernel (Linux 6.1, Landlock ABI 2), run
/// on this newer one with the plugin processes limited to ABI 2 (`PluginHost(landlockABI:)`):
/// no Landlock network rules and no scoping of signals and abstract sockets, so the PID and
/// network namespaces and seccomp stand in for them. What ABI 2 cannot enforce (the granted
/// ports) is said, and shown to be so.
@Suite("Plugin attacks on an older kernel (Landlock ABI 2)", .serialized,
       .enabled(if: (PluginConfinementReport.probe()?.landlockABI ?? 0) >= 2))
struct PluginAttackOlderKernelTests {
    static func load(_ id: String, permissions: String = "{}", sandbox: PluginSandbox) async throws -> PluginHarness {
        try sandbox.installAttacker(id, permissions: permissions)
        let harness = PluginHarness(sandbox: sandbox, landlockABI: 2)
        let report = await harness.load()[id: id]
        #expect(report?.state == .loaded, "\(String(describing: report))")
        return harness
    }

    @Test("confined as Debian 12's kernel confines: files by Landlock, the network and the shell by namespaces and seccomp; granted ports are not limited, and that is said")
    func debianKernel() async throws {
        let sandbox = try PluginSandbox()
        let home = try TestFolder.make("home")
        let secret = home.appendingPathComponent(".ssh/id_rsa")
        try FileManager.default.createDirectory(at: secret.deletingLastPathComponent(), withIntermediateDirectories: true)
        try Data("-----BEGIN SECRET KEY-----".utf8).write(to: secret)
        let server = try LoopbackServer()
        let other = try LoopbackServer()
        let harness = try await Self.load("intruder", sandbox: sandbox)
        let dialer = try await Self.load("dialer", permissions: #"{"network": ["127.0.0.1:\#(server.port)"]}"#, sandbox: sandbox)

        let confinement = try #require(harness.host.report(for: "intruder")?.confinement)
        #expect(confinement.summary == "Landlock 2: files · seccomp · PID/user/IPC/network namespaces", "\(confinement.summary)")
        #expect(confinement.missing.contains { $0.hasPrefix("Landlock network rules: this kernel has Landlock ABI 2") }, "\(confinement.missing)")

        // Files: Landlock ABI 1 is enough.
        let stolen = try await PluginAttackTests.attempt(harness, "intruder", "read", ["path": .string(secret.path)])
        #expect(stolen["ok"] == false && stolen["errno"] == 13, "EACCES: \(stolen)")
        // No network without a grant: the network namespace has no way out, seccomp no socket.
        let connected = try await PluginAttackTests.attempt(harness, "intruder", "connect", ["port": .number(Double(server.port))])
        let listened = try await PluginAttackTests.attempt(harness, "intruder", "listen", ["port": 0])
        #expect(connected["ok"] == false && listened["ok"] == false, "\(connected) \(listened)")
        // The shell: hidden by the PID namespace (no Landlock scoping), ptrace refused by seccomp.
        for attack in ["kill", "stop", "ptrace", "memory"] {
            let result = try await PluginAttackTests.attempt(harness, "intruder", attack, ["pid": .number(Double(getpid()))])
            #expect(result["ok"] == false, "\(attack): \(result)")
        }
        let ran = try await PluginAttackTests.attempt(harness, "intruder", "exec", ["program": "/bin/sh"])
        #expect(ran["ok"] == false && ran["errno"] == 1, "EPERM: \(ran)")

        // A granted port connects; so does one not granted, which ABI 2 cannot refuse: the
        // plugin's report says so.
        let granted = try await PluginAttackTests.attempt(dialer, "dialer", "connect", ["port": .number(Double(server.port))])
        let otherPort = try await PluginAttackTests.attempt(dialer, "dialer", "connect", ["port": .number(Double(other.port))])
        #expect(granted["ok"] == true && otherPort["ok"] == true, "\(granted) \(otherPort)")
        #expect(dialer.host.report(for: "dialer")?.confinement?.warnings
                == ["network: granted ports cannot be enforced on this kernel (Landlock ABI 4 needed): every host and port is reachable"])
        try await PluginAttackTests.expectAlive(harness, "intruder")
    }
}
