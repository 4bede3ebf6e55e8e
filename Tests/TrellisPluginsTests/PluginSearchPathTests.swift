import Foundation
import Testing
@testable import TrellisPlugins
import TrellisCore

@Suite("Plugin search paths and file security")
struct PluginSearchPathTests {
    @Test("standard paths: the source tree's plugins, XDG data, the prefix, then --plugin-dir, in that order")
    func standardOrder() {
        let executable = BuiltPlugins.binDirectory.appendingPathComponent("trellis")
        let paths = PluginSearchPath.standard(pluginDirectories: ["/opt/mine"],
                                              environment: ["XDG_DATA_HOME": "/xdg", "HOME": "/home/u"],
                                              executable: executable)
        #expect(paths.map(\.origin) == [.build, .user, .system, .commandLine])
        #expect(paths[0].directory == BuiltPlugins.repository.appendingPathComponent("plugins").standardizedFileURL)
        #expect(paths[0].libraryFallbacks == [BuiltPlugins.binDirectory.standardizedFileURL])
        #expect(paths[1].directory.path == "/xdg/trellis/plugins")
        #expect(paths[2].directory == BuiltPlugins.binDirectory.deletingLastPathComponent()
            .appendingPathComponent("lib/trellis/plugins").standardizedFileURL)
        #expect(paths[3].directory.path == "/opt/mine")
    }

    @Test("an installed executable finds <prefix>/lib/trellis/plugins and ~/.local/share, and no source tree")
    func installed() {
        let paths = PluginSearchPath.standard(environment: ["HOME": "/home/u"], executable: URL(fileURLWithPath: "/usr/bin/trellis"))
        #expect(paths.map(\.directory.path) == ["/home/u/.local/share/trellis/plugins", "/usr/lib/trellis/plugins"])
    }

    @Test("a --plugin-dir that is itself a plugin folder is loaded as one plugin")
    func singlePluginDirectory() throws {
        let sandbox = try PluginSandbox()
        let folder = try sandbox.install("Template")
        let discovery = PluginDiscovery(searchPaths: [PluginSearchPath(directory: folder, origin: .commandLine)])
        #expect(discovery.discover().map(\.id) == ["template"])
    }

    @Test("the first usable copy of an id wins; a later one is reported as a duplicate")
    func duplicates() throws {
        let first = try PluginSandbox()
        let second = try PluginSandbox()
        let winner = try first.install("Template")
        try second.install("Template")
        let reports = PluginDiscovery(searchPaths: [PluginSearchPath(directory: first.root, origin: .user),
                                                    PluginSearchPath(directory: second.root, origin: .commandLine)]).discover()
        #expect(reports.map(\.state) == [.found, .failed(.duplicateID(firstFoundAt: winner.path))])
    }

    @Test("file security accepts our own and root's files, and refuses world-writable ones and strangers'")
    func security() throws {
        let sandbox = try PluginSandbox()
        let ours = PluginFileSecurity()
        #expect(ours.problem(at: sandbox.root) == nil)
        #expect(ours.problem(at: URL(fileURLWithPath: "/usr/lib")) == nil)

        let someoneElse = PluginFileSecurity(expectedOwner: 4_000_000)
        if geteuid() != 0 {
            #expect(someoneElse.problem(at: sandbox.root)?.contains("is owned by") == true)
        }
        try FileManager.default.setAttributes([.posixPermissions: 0o777], ofItemAtPath: sandbox.root.path)
        #expect(ours.problem(at: sandbox.root) == "\(sandbox.root.path) is world-writable (mode 777); run chmod o-w on it")
        #expect(ours.problem(at: sandbox.root.appendingPathComponent("missing"))?.contains("cannot check permissions") == true)
    }
}
