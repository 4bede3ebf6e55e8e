import Foundation
import PropertyBased
import Testing
import TrellisCore
import TrellisPlugins

/// Plugin manifests (`plugin.json`), mutated from a valid one: parsing never crashes, a
/// refused manifest names its file (and the key at fault), and an accepted one is safe to act
/// on — its library is a plain file name and its ids are ids.
@Suite("Fuzz: plugin manifests")
struct ManifestFuzzTests {
    static let file = "/plugins/fuzz/plugin.json"
    static let keys = ["id", "name", "version", "abiVersion", "library", "services", "dependencies", "description", "autostart"]

    static let valid: JSONValue = [
        "id": "network-activity", "name": "Network Activity", "version": "1.0.0", "abiVersion": 2,
        "library": "libTrellisPluginNetworkActivity.so", "services": ["net_state", "location"],
        "dependencies": ["template"], "description": "Counts network:on and network:off.",
        "autostart": ["net_state": nil, "location": ["mode": "fixed"]],
    ]

    static let mutator = JSONMutator(words: keys + [
        "network-activity", "template", "net_state", "location", "libTrellisPluginNetworkActivity.so", "optinal", "1",
    ])

    @Test("a mutated manifest is accepted only when safe, or refused naming the file and the key")
    func structure() async {
        await propertyCheck(count: 3000, input: Self.mutator.generator(of: Self.valid)) { json in
            await Hostile.yieldToOtherTests()
            do throws(PluginManifestError) {
                Self.expectSafe(try PluginManifest(json: json, file: Self.file))
            } catch {
                Self.expectNamesFileAndKey(error)
            }
        }
    }

    @Test("a manifest file with broken bytes is read or refused naming the file, never crashing")
    func bytes() async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("trellis-fuzz-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let url = folder.appendingPathComponent(PluginManifest.fileName)
        await propertyCheck(count: 1500, input: Hostile.mutatedBytes(of: Self.valid.jsonString)) { data in
            await Hostile.yieldToOtherTests()
            do {
                try data.write(to: url)
                Self.expectSafe(try PluginManifest.load(from: url))
            } catch let error as PluginManifestError {
                #expect(error.file == url.path)
                #expect(error.description.hasPrefix(url.path + ": "))
            } catch {
                Issue.record("could not write the manifest: \(error)")
            }
        }
    }

    // MARK: Edge cases, kept as named tests

    @Test("library names that are paths, dot segments or carry control characters are refused", arguments: [
        "../../lib.so", "/abs.so", "a/b.so", ".", "..", "lib\u{0}.so", "lib.so\n", "lib\u{7f}.so",
    ])
    func hostileLibrary(library: String) {
        var json = Self.valid
        json["library"] = .string(library)
        #expect(throws: PluginManifestError.self) { try PluginManifest(json: json, file: Self.file) }
        do {
            _ = try PluginManifest(json: json, file: Self.file)
        } catch {
            #expect(error.description.hasPrefix(Self.file + ": key \"library\""))
            #expect(!error.description.contains("\n"), "the name is escaped: the message stays one line")
        }
    }

    @Test("a manifest over 64 KiB is refused as too large without being parsed")
    func oversizedFile() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("trellis-fuzz-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let url = folder.appendingPathComponent(PluginManifest.fileName)
        var json = Self.valid
        json["description"] = .string(String(repeating: "x", count: PluginManifest.maximumFileSize))
        let data = json.jsonData()
        try data.write(to: url)
        #expect(throws: PluginManifestError.tooLarge(file: url.path, bytes: data.count, limit: 65_536)) {
            try PluginManifest.load(from: url)
        }
    }

    // MARK: Checks

    /// What the host relies on once a manifest is accepted.
    static func expectSafe(_ manifest: PluginManifest) {
        #expect(PluginManifest.isValidID(manifest.id))
        #expect(!manifest.library.isEmpty && !manifest.library.contains("/") && manifest.library != "." && manifest.library != "..")
        #expect(!manifest.library.unicodeScalars.contains { $0.value < 0x20 || $0.value == 0x7F }, "no NUL to cut the C string short")
        #expect(Set(manifest.services).count == manifest.services.count && !manifest.services.contains(""))
        #expect(manifest.dependencies.allSatisfy(PluginManifest.isValidID) && !manifest.dependencies.contains(manifest.id))
        #expect(Set(manifest.autostart.keys).isSubset(of: manifest.services))
        #expect((try? PluginManifest(json: manifest.json, file: file)) == manifest, "an accepted manifest round-trips")
    }

    /// A refusal names the manifest's file, and the key for a key-level problem; one that finds
    /// several tells each, and each names its key.
    static func expectNamesFileAndKey(_ error: PluginManifestError) {
        #expect(error.file == file)
        #expect(error.description.hasPrefix(file + ": "))
        if case .several(let errors) = error {
            #expect(errors.count > 1)
            errors.forEach(expectNamesFileAndKey)
            return
        }
        switch error {
        case .missingKey(_, let key), .wrongType(_, let key, _), .invalidValue(_, let key, _):
            #expect(keys.contains(key) || error.description.contains("unknown key (known: "), "a known key is named, or a stray one as unknown: \(key)")
            #expect(error.description.contains("\"\(key)\""))
        case .notAnObject, .malformed, .unreadable, .tooLarge, .several:
            break
        }
    }
}
