import Foundation
import Testing
@testable import TrellisPlugins
import TrellisCore

/// Every row of the failure matrix: the broken plugin is reported with
/// the same clear reason, and a healthy plugin in the same folder (CHello, id "healthy") still
/// loads and works.
@Suite("Plugin failure matrix")
struct PluginFailureMatrixTests {
    /// Loads the sandbox next to a healthy plugin and returns the report of `id`.
    private func load(_ sandbox: PluginSandbox, id: String, harness: PluginHarness? = nil,
                      sourceLocation: SourceLocation = #_sourceLocation) async throws -> PluginReport {
        try sandbox.install("CHello", as: "healthy")
        let harness = harness ?? PluginHarness(sandbox: sandbox)
        let hello = harness.record("hello:pong")
        let reports = await harness.load()
        #expect(reports[id: "healthy"]?.state == .loaded, "the other plugins go on", sourceLocation: sourceLocation)
        harness.bus.trigger("hello:ping", ["alive": true])
        #expect(try await hello.settled(count: 1) == [#"hello:pong {"alive":true}"#], sourceLocation: sourceLocation)
        return try #require(reports[id: id], sourceLocation: sourceLocation)
    }

    @Test("a manifest that is not valid JSON is reported with its file")
    func manifestNotJSON() async throws {
        let sandbox = try PluginSandbox()
        let folder = try sandbox.writeManifest(folder: "garbled", #"{"id": "garbled", "name": "#)
        let report = try await load(sandbox, id: "garbled")
        let file = folder.appendingPathComponent("plugin.json").path
        guard case .failed(.manifest(.malformed(let reported, _))) = report.state else {
            Issue.record("unexpected state \(report.state)")
            return
        }
        #expect(reported == file)
        #expect(report.state.description.contains("\(file): the manifest is not valid JSON"))
    }

    @Test("a missing required key is reported with the file and the key")
    func requiredKeyMissing() async throws {
        let sandbox = try PluginSandbox()
        let folder = try sandbox.install("Template", as: "keyless") { $0["library"] = nil }
        let report = try await load(sandbox, id: "keyless")
        let file = folder.appendingPathComponent("plugin.json").path
        #expect(report.state == .failed(.manifest(.missingKey(file: file, key: "library"))))
        #expect(report.state.description == "failed: \(file): required key \"library\" is missing")
    }

    @Test("a missing library is reported with the folders searched")
    func libraryMissing() async throws {
        let sandbox = try PluginSandbox()
        let folder = try sandbox.install("Template", as: "no-library")
        try FileManager.default.removeItem(at: folder.appendingPathComponent("libTrellisPluginTemplate.so"))
        let report = try await load(sandbox, id: "no-library")
        guard case .failed(.libraryMissing(let library, let searched)) = report.state else {
            Issue.record("unexpected state \(report.state)")
            return
        }
        #expect(library == "libTrellisPluginTemplate.so")
        #expect(searched.first == folder.path)
    }

    @Test("a library without the entry symbol is reported with the symbol")
    func entrySymbolMissing() async throws {
        let sandbox = try PluginSandbox()
        let folder = try sandbox.installFixture("no-entry", .noEntry)
        let harness = PluginHarness(sandbox: sandbox)
        let crashes = harness.record("plugin:crashed")
        let report = try await load(sandbox, id: "no-entry", harness: harness)
        #expect(report.state == .failed(.entryMissing(path: folder.appendingPathComponent("libno-entry.so").path,
                                                      symbol: "trellis_plugin_entry")))
        // A plugin process that could not load ends: that is no crash, and nothing restarts it.
        #expect(crashes.all.isEmpty)
        #expect(harness.host.report(for: "no-entry")?.state == report.state)
    }

    @Test("a library the dynamic loader refuses is reported with the loader's message")
    func libraryUnloadable() async throws {
        let sandbox = try PluginSandbox()
        let folder = try sandbox.installFixture("junk", .noEntry)
        let library = folder.appendingPathComponent("libjunk.so")
        try Data("not a shared object\n".utf8).write(to: library)
        let report = try await load(sandbox, id: "junk")
        guard case .failed(.libraryUnloadable(let path, let reason)) = report.state else {
            Issue.record("unexpected state \(report.state)")
            return
        }
        #expect(path == library.path)
        #expect(reason.contains(library.path), "\(reason)")
    }

    @Test("an ABI version newer than the host's is refused before the library is opened")
    func abiTooNew() async throws {
        let sandbox = try PluginSandbox()
        try sandbox.install("Template", as: "from-the-future") { $0["abiVersion"] = 3 }
        let harness = PluginHarness(sandbox: sandbox)
        let report = try await load(sandbox, id: "from-the-future", harness: harness)
        #expect(report.state == .failed(.abiTooNew(plugin: 3, host: 2)))
        #expect(report.state.description.contains("too new"))
        #expect(!harness.services.services.contains { $0.name == "template" })
    }

    @Test("an ABI version older than the oldest supported is refused")
    func abiTooOld() async throws {
        let sandbox = try PluginSandbox()
        try sandbox.install("Template", as: "ancient") { $0["abiVersion"] = 0 }
        let report = try await load(sandbox, id: "ancient")
        #expect(report.state == .failed(.abiTooOld(plugin: 0, oldest: 1)))
        #expect(report.state.description.contains("too old"))
    }

    @Test("a library built for another ABI than its manifest says is refused")
    func abiMismatch() async throws {
        let sandbox = try PluginSandbox()
        let folder = try sandbox.installFixture("mismatch", .infoABI(7))
        let report = try await load(sandbox, id: "mismatch")
        #expect(report.state == .failed(.abiMismatch(path: folder.appendingPathComponent("libmismatch.so").path,
                                                     manifest: 2, library: 7)))
    }

    @Test("an entry that returns no info, or refuses the host, is reported with the plugin's reason")
    func entryRefuses() async throws {
        let sandbox = try PluginSandbox()
        try sandbox.installFixture("silent", .nullInfo)
        try sandbox.installFixture("picky", .refusal("needs host ABI 9"), services: ["picky"])
        let harness = PluginHarness(sandbox: sandbox)
        let report = try await load(sandbox, id: "picky", harness: harness)
        #expect(report.state == .failed(.refusedByPlugin(reason: "needs host ABI 9")))
        #expect(harness.host.reports[id: "silent"]?.state.failure?.description.contains("returned no plugin info") == true)
    }

    @Test("a service the manifest does not list is refused")
    func undeclaredService() async throws {
        let sandbox = try PluginSandbox()
        try sandbox.installFixture("sneaky", .registers("hidden"), services: ["visible"])
        let harness = PluginHarness(sandbox: sandbox)
        let report = try await load(sandbox, id: "sneaky", harness: harness)
        guard case .failed(.invalidService(let service, let reason)) = report.state else {
            Issue.record("unexpected state \(report.state)")
            return
        }
        #expect(service == "hidden")
        #expect(reason.contains("not listed in the manifest"))
        #expect(!harness.services.services.contains { $0.name == "hidden" })
    }

    @Test("a missing dependency is reported by name")
    func dependencyMissing() async throws {
        let sandbox = try PluginSandbox()
        try sandbox.install("Template", as: "needy") { $0["dependencies"] = ["ghost"] }
        let report = try await load(sandbox, id: "needy")
        #expect(report.state == .failed(.dependencyMissing(dependency: "ghost")))
    }

    @Test("plugins in a dependency cycle are reported with the cycle")
    func dependencyCycle() async throws {
        let sandbox = try PluginSandbox()
        try sandbox.install("Template", as: "chicken") { $0["dependencies"] = ["egg"] }
        try sandbox.install("Location", as: "egg") { $0["dependencies"] = ["chicken"] }
        let harness = PluginHarness(sandbox: sandbox)
        let report = try await load(sandbox, id: "chicken", harness: harness)
        #expect(report.state == .failed(.dependencyCycle(["chicken", "egg", "chicken"])))
        #expect(harness.host.reports[id: "egg"]?.state == .failed(.dependencyCycle(["egg", "chicken", "egg"])))
        #expect(report.state.description == "failed: dependency cycle: chicken → egg → chicken")
    }

    @Test("a service name the host already registered fails the plugin, and the host's service stays")
    func serviceAlreadyRegistered() async throws {
        let sandbox = try PluginSandbox()
        try sandbox.install("NetworkActivity")
        let harness = PluginHarness(sandbox: sandbox)
        try harness.services.register("net_state") { HostNetState() }
        let report = try await load(sandbox, id: "network-activity", harness: harness)
        #expect(report.state == .failed(.serviceAlreadyRegistered(service: "net_state", reason: "registered by the host")))
        #expect(harness.services.services.first { $0.name == "net_state" }?.owner == "host")
    }

    @Test("a service whose start returns an error fails the plugin with the plugin's message")
    func startFails() async throws {
        let sandbox = try PluginSandbox()
        try sandbox.install("Location", as: "lost") { $0["autostart"] = ["location": [:]] }
        let harness = PluginHarness(sandbox: sandbox)
        let report = try await load(sandbox, id: "lost", harness: harness)
        #expect(report.state == .failed(.serviceStartFailed(
            service: "location", reason: #"location options need either "latitude" and "longitude", or "track""#)))
        #expect(!harness.services.isRunning("location"))
    }

    @Test("a world-writable plugin folder is refused")
    func worldWritableFolder() async throws {
        let sandbox = try PluginSandbox()
        let folder = try sandbox.install("Template", as: "open-door")
        try FileManager.default.setAttributes([.posixPermissions: 0o777], ofItemAtPath: folder.path)
        let report = try await load(sandbox, id: "open-door")
        #expect(report.state.failure?.description.contains("\(folder.path) is world-writable") == true)
    }

    @Test("a world-writable library is refused")
    func worldWritableLibrary() async throws {
        let sandbox = try PluginSandbox()
        let folder = try sandbox.install("Template", as: "open-library")
        let library = folder.appendingPathComponent("libTrellisPluginTemplate.so")
        try FileManager.default.setAttributes([.posixPermissions: 0o757], ofItemAtPath: library.path)
        let report = try await load(sandbox, id: "open-library")
        #expect(report.state.failure?.description.contains("\(library.path) is world-writable") == true)
    }

    @Test("a plugin folder owned by another user is refused", .enabled(if: geteuid() == 0, "only root can give a folder away"))
    func ownedByAnotherUser() async throws {
        let sandbox = try PluginSandbox()
        let folder = try sandbox.install("Template", as: "strangers")
        #expect(chown(folder.path, 65534, 65534) == 0)
        let report = try await load(sandbox, id: "strangers")
        #expect(report.state.failure?.description.contains("\(folder.path) is owned by") == true)
    }
}

/// A service of the host's own, whose name a plugin then cannot take.
private final class HostNetState: Service {
    func start(options: JSONValue, bus: EventBus) {}
    func stop(options: JSONValue) {}
}
