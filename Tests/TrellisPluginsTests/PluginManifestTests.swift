import Foundation
import Testing
@testable import TrellisPlugins
import TrellisCore

@Suite("Plugin manifest")
struct PluginManifestTests {
    private let file = "/plugins/Demo/plugin.json"
    private let fullManifest: JSONValue = [
        "id": "demo", "name": "Demo", "version": "1.2.0", "abiVersion": 2, "library": "libDemo.so",
        "services": ["a", "b"], "dependencies": ["base"], "description": "A demo.", "autostart": ["a": ["x": 1]],
    ]

    @Test("reads every key of a complete manifest")
    func completeManifest() throws {
        let manifest = try PluginManifest(json: fullManifest, file: file)
        #expect(manifest == PluginManifest(id: "demo", name: "Demo", version: "1.2.0", abiVersion: 2, library: "libDemo.so",
                                           services: ["a", "b"], dependencies: ["base"], description: "A demo.",
                                           autostart: ["a": ["x": 1]]))
        #expect(try PluginManifest(json: manifest.json, file: file) == manifest)
    }

    @Test("optional keys default to empty")
    func optionalKeys() throws {
        let manifest = try PluginManifest(
            json: ["id": "demo", "name": "Demo", "version": "1", "abiVersion": 2, "library": "libDemo.so"], file: file)
        #expect(manifest.services.isEmpty && manifest.dependencies.isEmpty && manifest.autostart.isEmpty)
        #expect(manifest.description == "")
    }

    @Test("each missing required key is named with the file", arguments: ["id", "name", "version", "abiVersion", "library"])
    func missingKey(key: String) {
        var json = fullManifest
        json[key] = nil
        #expect(throws: PluginManifestError.missingKey(file: file, key: key)) { try PluginManifest(json: json, file: file) }
    }

    @Test("a key of the wrong type is named with the type expected", arguments: [
        ("abiVersion", JSONValue.string("1"), "an integer"),
        ("services", JSONValue.string("a"), "an array of strings"),
        ("dependencies", JSONValue.array([1]), "an array of strings"),
        ("autostart", JSONValue.array([]), "an object"),
        ("name", JSONValue.number(3), "a string"),
    ])
    func wrongType(key: String, value: JSONValue, expected: String) {
        var json = fullManifest
        json[key] = value
        #expect(throws: PluginManifestError.wrongType(file: file, key: key, expected: expected)) {
            try PluginManifest(json: json, file: file)
        }
    }

    @Test("unacceptable values are refused with the key", arguments: [
        ("id", JSONValue.string("../evil"), "id"),
        ("library", JSONValue.string("/usr/lib/libc.so.6"), "library"),
        ("services", JSONValue.array(["a", "a"]), "services"),
        ("dependencies", JSONValue.array(["demo"]), "dependencies"),
        ("autostart", JSONValue.object(["zzz": .null]), "autostart"),
    ])
    func invalidValue(key: String, value: JSONValue, reported: String) {
        var json = fullManifest
        json[key] = value
        do {
            _ = try PluginManifest(json: json, file: file)
            Issue.record("expected an error for \(key)")
        } catch {
            guard case .invalidValue(let errorFile, let errorKey, _) = error else {
                Issue.record("unexpected error \(error)")
                return
            }
            #expect(errorFile == file && errorKey == reported)
        }
    }

    @Test("a file that is not JSON, or not an object, is reported with its path")
    func notJSON() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("manifest-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let url = folder.appendingPathComponent("plugin.json")

        try Data("{\"id\": ".utf8).write(to: url)
        #expect(throws: PluginManifestError.self) { try PluginManifest.load(from: url) }
        do { _ = try PluginManifest.load(from: url) } catch { #expect(error.file == url.path) }

        try Data("[1]".utf8).write(to: url)
        #expect(throws: PluginManifestError.notAnObject(file: url.path)) { try PluginManifest.load(from: url) }

        try FileManager.default.removeItem(at: url)
        do { _ = try PluginManifest.load(from: url) } catch {
            guard case .unreadable(let reported, _) = error else { Issue.record("unexpected error \(error)"); return }
            #expect(reported == url.path)
        }
    }

    @Test("the manifests in plugins/ are valid, and each plugin runs in a process of its own")
    func shippedManifests() throws {
        for folder in ["NetworkActivity", "Location", "Template", "CHello"] {
            let manifest = try PluginManifest.load(from: BuiltPlugins.folder(folder).appendingPathComponent("plugin.json"))
            #expect(manifest.abiVersion == PluginDiscovery.hostABIVersion)
            #expect(manifest.library == "libTrellisPlugin\(folder).so")
            // In the shell's process a Swift plugin would load a second Swift runtime beside the
            // release shell's own (Package.swift), on the start-up thread: Benchmarks.md, startup.
            #expect(manifest.isolation == .process, "\(folder)")
        }
    }
}
