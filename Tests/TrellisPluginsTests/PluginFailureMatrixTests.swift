import Foundation
import Testing
@testable import TrellisPlugins
import TrellisCore

/// Every row of the failure matrix, in both isolation modes: the broken plugin is reported with
/// the same clear reason, and a healthy plugin in the same folder (CHello, id "healthy") still
/// loads and works.
@Suite("Plugin failure matrix")
struct PluginFailureMatrixTests {
    /// Loads the sandbox next to a healthy plugin and returns the report of `id`.
    private func load(_ sandbox: PluginSandbox, id: String, isolation: PluginIsolation, harness: PluginHarness? = nil,
                      sourceLocation: SourceLocation = #_sourceLocation) async throws -> PluginReport {
        try sandbox.install("CHello", as: "healthy")
        let harness = harness ?? PluginHarness(sandbox: sandbox, isolation: isolation)
        let hello = harness.record("hello:pong")
        let reports = await harness.load()
        #expect(reports[id: "healthy"]?.state == .loaded, "the other plugins go on", sourceLocation: sourceLocation)
        harness.bus.trigger("hello:ping", ["alive": true])
        #expect(try await hello.settled(count: 1) == [#"hello:pong {"alive":true}"#], sourceLocation: sourceLocation)
        return try #require(reports[id: id], sourceLocation: sourceLocation)
    }

    @Test("a manifest that is not valid JSON is reported with its file", arguments: PluginIsolation.both)
    func manifestNotJSON(isolation: PluginIsolation) async throws {
        let sandbox = try PluginSandbox()
        let folder = try sandbox.writeManifest(folder: "garbled", #"{"id": "garbled", "name": "#)
        let report = try await load(sandbox, id: "garbled", isolation: isolation)
        let file = folder.appendingPathComponent("plugin.json").path
        guard case .failed(.manifest(.malformed(let reported, _))) = report.state else {
            Issue.record("unexpected state \(report.state)")
            return
        }
        #expect(reported == file)
        #expect(report.state.description.contains("\(file): the manifest is not valid JSON"))
    }

    @Test("a missing required key is reported with the file and the key", arguments: PluginIsolation.both)
    func requiredKeyMissing(isolation: PluginIsolation) async throws {
        let sandbox = try PluginSandbox()
        let folder = try sandbox.install("Template", as: "keyless") { $0["library"] = nil }
        let report = try await load(sandbox, id: "keyless", isolation: isolation)
        let file = folder.appendingPathComponent("plugin.json").path
        #expect(report.state == .failed(.manifest(.missingKey(file: file, key: "library"))))
        #expect(report.state.description == "failed: \(file): required key \"library\" is missing")
    }

    @Test("a missing library is reported with the folders searched", arguments: PluginIsolation.both)
    func libraryMissing(isolation: PluginIsolation) async throws {
        let sandbox = try PluginSandbox()
        let folder = try sandbox.install("Template", as: "no-library")
        try FileManager.default.removeItem(at: folder.appendingPathComponent("libTrellisPluginTemplate.so"))
        let report = try await load(sandbox, id: "no-library", isolation: isolation)
        guard case .failed(.libraryMissing(let library, let searched)) = report.state else {
            Issue.record("unexpected state \(report.state)")
            return
        }
        #expect(library == "libTrellisPluginTemplate.so")
        #expect(searched.first == folder.path)
    }

    @Test("a library without the entry symbol is reported with the symbol", arguments: PluginIsolation.both)
    func entrySymbolMissing(isolation: PluginIsolation) async throws {
        let sandbox = try PluginSandbox()
        let folder = try sandbox.installFixture("no-entry", .noEntry)
        let harness = PluginHarness(sandbox: sandbox, isolation: isolation)
        let crashes = harness.record("plugin:crashed")
        let report = try await load(sandbox, id: "no-entry", isolation: isolation, harness: harness)
        #expect(report.state == .failed(.entryMissing(path: folder.appendingPathComponent("libno-entry.so").path,
                                                      symbol: "trellis_plugin_entry")))
        // A plugin process that could not load ends: that is no crash, and nothing restarts it.
        #expect(crashes.all.isEmpty)
        #expect(harness.host.report(for: "no-entry")?.state == report.state)
    }

    @Test("a library the dynamic loader refuses is reported with the loader's message", arguments: PluginIsolation.both)
    func libraryUnloadable(isolation: PluginIsolation) async throws {
        let sandbox = try PluginSandbox()
        let folder = try sandbox.installFixture("junk", .noEntry)
        let library = folder.appendingPathComponent("libjunk.so")
        try Data("not a shared object\n".utf8).write(to: library)
        let report = try await load(sandbox, id: "junk", isolation: isolation)
        guard case .failed(.libraryUnloadable(let path, let reason)) = report.state else {
            Issue.record("unexpected state \(report.state)")
            return
        }
        #expect(path == library.path)
        #expect(reason.contains(library.path), "\(reason)")
    }

    @Test("an ABI version newer than the host's is refused before the library is opened", arguments: PluginIsolation.both)
    func abiTooNew(isolation: PluginIsolation) async throws {
        let sandbox = try PluginSandbox()
        try sandbox.install("Template", as: "from-the-future") { $0["abiVersion"] = 3 }
        let harness = PluginHarness(sandbox: sandbox, isolation: isolation)
        let report = try await load(sandbox, id: "from-the-future", isolation: isolation, harness: harness)
        #expect(report.state == .failed(.abiTooNew(plugin: 3, host: 2)))
        #expect(report.state.description.contains("too new"))
        #expect(!harness.services.services.contains { $0.name == "template" })
    }

    @Test("an ABI version older than the oldest supported is refused", arguments: PluginIsolation.both)
    func abiTooOld(isolation: PluginIsolation) async throws {
        let sandbox = try PluginSandbox()
        try sandbox.install("Template", as: "ancient") { $0["abiVersion"] = 0 }
        let report = try await load(sandbox, id: "ancient", isolation: isolation)
        #expect(report.state == .failed(.abiTooOld(plugin: 0, oldest: 1)))
        #expect(report.state.description.contains("too old"))
    }

    @Test("a library built for another ABI than its manifest says is refused", arguments: PluginIsolation.both)
    func abiMismatch(isolation: PluginIsolation) async throws {
        let sandbox = try PluginSandbox()
        let folder = try sandbox.installFixture("mismatch", .infoABI(7))
        let report = try await load(sandbox, id: "mismatch", isolation: isolation)
        #expect(report.state == .failed(.abiMismatch(path: folder.appendingPathComponent("libmismatch.so").path,
                                                     manifest: 2, library: 7)))
    }

    @Test("an entry that returns no info, or refuses the host, is reported with the plugin's reason", arguments: PluginIsolation.both)
    func entryRefuses(isolation: PluginIsolation) async throws {
        let sandbox = try PluginSandbox()
        try sandbox.installFixture("silent", .nullInfo)
        try sandbox.installFixture("picky", .refusal("needs host ABI 9"), services: ["picky"])
        let harness = PluginHarness(sandbox: sandbox, isolation: isolation)
        let report = try await load(sandbox, id: "picky", isolation: isolation, harness: harness)
        #expect(report.state == .failed(.refusedByPlugin(reason: "needs host ABI 9")))
        #expect(harness.host.reports[id: "silent"]?.state.failure?.description.contains("returned no plugin info") == true)
    }

    @Test("a service the manifest does not list is refused", arguments: PluginIsolation.both)
    func undeclaredService(isolation: PluginIsolation) async throws {
        let sandbox = try PluginSandbox()
        try sandbox.installFixture("sneaky", .registers("hidden"), services: ["visible"])
        let harness = PluginHarness(sandbox: sandbox, isolation: isolation)
        let report = try await load(sandbox, id: "sneaky", isolation: isolation, harness: harness)
        guard case .failed(.invalidService(let service, let reason)) = report.state else {
            Issue.record("unexpected state \(report.state)")
            return
        }
        #expect(service == "hidden")
        #expect(reason.contains("not listed in the manifest"))
        #expect(!harness.services.services.contains { $0.name == "hidden" })
    }

    @Test("a missing dependency is reported by name", arguments: PluginIsolation.both)
    func dependencyMissing(isolation: PluginIsolation) async throws {
        let sandbox = try PluginSandbox()
        try sandbox.install("Template", as: "needy") { $0["dependencies"] = ["ghost"] }
        let report = try await load(sandbox, id: "needy", isolation: isolation)
        #expect(report.state == .failed(.dependencyMissing(dependency: "ghost")))
    }

    @Test("plugins in a dependency cycle are reported with the cycle", arguments: PluginIsolation.both)
    func dependencyCycle(isolation: PluginIsolation) async throws {
        let sandbox = try PluginSandbox()
        try sandbox.install("Template", as: "chicken") { $0["dependencies"] = ["egg"] }
        try sandbox.install("Location", as: "egg") { $0["dependencies"] = ["chicken"] }
        let harness = PluginHarness(sandbox: sandbox, isolation: isolation)
        let report = try await load(sandbox, id: "chicken", isolation: isolation, harness: harness)
        #expect(report.state == .failed(.dependencyCycle(["chicken", "egg", "chicken"])))
        #expect(harness.host.reports[id: "egg"]?.state == .failed(.dependencyCycle(["egg", "chicken", "egg"])))
        #expect(report.state.description == "failed: dependency cycle: chicken → egg → chicken")
    }

    @Test("a service name the host already registered fails the plugin, and the host's service stays", arguments: PluginIsolation.both)
    func serviceAlreadyRegistered(isolation: PluginIsolation) async throws {
        let sandbox = try PluginSandbox()
        try sandbox.install("NetworkActivity")
        let harness = PluginHarness(sandbox: sandbox, isolation: isolation)
        try harness.services.register("net_state") { HostNetState() }
        let report = try await load(sandbox, id: "network-activity", isolation: isolation, harness: harness)
        #expect(report.state == .failed(.serviceAlreadyRegistered(service: "net_state", reason: "registered by the host")))
        #expect(harness.services.services.first { $0.name == "net_state" }?.owner == "host")
    }

    @Test("a service whose start returns an error fails the plugin with the plugin's message", arguments: PluginIsolation.both)
    func startFails(isolation: PluginIsolation) async throws {
        let sandbox = try PluginSandbox()
        try sandbox.install("Location", as: "lost") { $0["autostart"] = ["location": [:]] }
        let harness = PluginHarness(sandbox: sandbox, isolation: isolation)
        let report = try await load(sandbox, id: "lost", isolation: isolation, harness: harness)
        #expect(report.state == .failed(.serviceStartFailed(
            service: "location", reason: #"location options need either "latitude" and "longitude", or "track""#)))
        #expect(!harness.services.isRunning("location"))
    }

    @Test("a world-writable plugin folder is refused", arguments: PluginIsolation.both)
    func worldWritableFolder(isolation: PluginIsolation) async throws {
        let sandbox = try PluginSandbox()
        let folder = try sandbox.install("Template", as: "open-door")
        try FileManager.default.setAttributes([.posixPermissions: 0o777], ofItemAtPath: folder.path)
        let report = try await load(sandbox, id: "open-door", isolation: isolation)
        #expect(report.state.failure?.description.contains("\(folder.path) is world-writable") == true)
    }

    @Test("a world-writable library is refused", arguments: PluginIsolation.both)
    func worldWritableLibrary(isolation: PluginIsolation) async throws {
        let sandbox = try PluginSandbox()
        let folder = try sandbox.install("Template", as: "open-library")
        let library = folder.appendingPathComponent("libTrellisPluginTemplate.so")
        try FileManager.default.setAttributes([.posixPermissions: 0o757], ofItemAtPath: library.path)
        let report = try await load(sandbox, id: "open-library", isolation: isolation)
        #expect(report.state.failure?.description.contains("\(library.path) is world-writable") == true)
    }

    @Test("a plugin folder owned by another user is refused", .enabled(if: geteuid() == 0, "only root can give a folder away"),
          arguments: PluginIsolation.both)
    func ownedByAnotherUser(isolation: PluginIsolation) async throws {
        let sandbox = try PluginSandbox()
        let folder = try sandbox.install("Template", as: "strangers")
        #expect(chown(folder.path, 65534, 65534) == 0)
        let report = try await load(sandbox, id: "strangers", isolation: isolation)
        #expect(report.state.failure?.description.contains("\(folder.path) is owned by") == true)
    }
}

/// A service of the host's own, whose name a plugin then cannot take.
private final class HostNetState: Service {
    func start(options: JSONValue, bus: EventBus) {}
    func stop(options: JSONValue) {}
}
