import Foundation
import Testing
@testable import TrellisPlugins
import TrellisCore
import TrellisTesting

/// ABI 2 keeps version-1 plugins working: the c-hello plugin as it was released for ABI 1 — its
/// source, manifest and header copied unchanged into `Fixtures/ABI1` — is compiled against that
/// header at test time and loads, in both isolation modes, beside the host's ABI 2 table.
@Suite("Plugin ABI compatibility")
struct PluginABICompatibilityTests {
    static let fixture = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Fixtures/ABI1")

    @Test("a plugin built against the version-1 header loads and answers as it did", arguments: [PluginIsolation.process, .inProcess])
    func versionOnePlugin(isolation: PluginIsolation) async throws {
        let sandbox = try PluginSandbox()
        let folder = sandbox.root.appendingPathComponent("c-hello")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        try FileManager.default.copyItem(at: Self.fixture.appendingPathComponent("plugin.json"), to: folder.appendingPathComponent("plugin.json"))
        try CCompiler.build(String(contentsOf: Self.fixture.appendingPathComponent("c-hello.c"), encoding: .utf8),
                            include: Self.fixture.path, to: folder.appendingPathComponent("libTrellisPluginCHello.so"))
        #expect(try PluginManifest.load(from: folder.appendingPathComponent("plugin.json")).abiVersion == 1)

        let harness = PluginHarness(sandbox: sandbox, isolation: isolation)
        let started = EventRecorder(bus: harness.bus, pattern: "hello:started")
        let reports = await offThePool { harness.host.loadAll() }
        #expect(reports[id: "c-hello"]?.state == .loaded, "\(reports)")
        #expect(try await started.wait(for: "hello:started").first?.data == ["greeting": "bonjour"])
        let pongs = EventRecorder(bus: harness.bus, pattern: "hello:pong")
        harness.bus.trigger("hello:ping", ["n": 7])
        #expect(try await pongs.wait(for: "hello:pong").first?.data == ["n": 7])
    }

    @Test("the host's table is ABI 2 and larger than version 1's, which it starts with")
    func tableVersion() throws {
        #expect(PluginDiscovery.hostABIVersion == 2)
        #expect(PluginDiscovery.oldestABIVersion == 1)
    }
}
