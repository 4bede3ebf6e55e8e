import Foundation
import Testing
@testable import TrellisPlugins
import TrellisCore

/// The README's plugin-development path, end to end: copy plugins/Template out of the tree,
/// rename it, build it with one `swift build` against this checkout's TrellisPluginSDK, and
/// load it with a plugin directory. Slow (it compiles TrellisCore and its dependencies for the
/// plugin package), so it is a single test.
@Suite("Out-of-tree plugin")
struct OutOfTreePluginTests {
    @Test("a plugin built from a separate Swift package in a temporary folder loads", .timeLimit(.minutes(20)))
    func separatePackage() async throws {
        let sandbox = try PluginSandbox()
        let package = sandbox.root.appendingPathComponent("Echo")
        try FileManager.default.createDirectory(at: package, withIntermediateDirectories: true)
        for item in ["Package.swift", "plugin.json", "Sources"] {
            try FileManager.default.copyItem(at: BuiltPlugins.folder("Template").appendingPathComponent(item),
                                             to: package.appendingPathComponent(item))
        }
        try rename(in: package.appendingPathComponent("Package.swift"))
        try rename(in: package.appendingPathComponent("plugin.json"))
        for source in try FileManager.default.contentsOfDirectory(at: package.appendingPathComponent("Sources"),
                                                                  includingPropertiesForKeys: nil) {
            try rename(in: source)
        }

        let log = sandbox.root.appendingPathComponent("build.log")
        let status = try await swiftBuild(in: package, log: log)
        let output = (try? String(contentsOf: log, encoding: .utf8)) ?? ""
        try #require(status == 0, "swift build failed:\n\(output.suffix(3000))")

        // The one build is loaded in each mode (a test per mode would build twice).
        for isolation in PluginIsolation.both {
            let harness = PluginHarness(searchPaths: [PluginSearchPath(directory: package, origin: .commandLine)],
                                        settingsURL: sandbox.settingsURL, isolation: isolation)
            let pongs = harness.record("echo:pong")
            let report = try #require(await harness.load()[id: "echo"])
            #expect(report.state == .loaded, "\(isolation): \(report)")
            #expect(report.library?.path.contains("/.build/") == true)

            harness.bus.trigger("echo:ping", "out of tree")  // its own namespace: no permission needed
            #expect(try await pongs.settled(count: 1) == [#"echo:pong {"greeting":"pong","ping":"out of tree"}"#], "\(isolation)")
        }
    }

    /// Gives the copy its own product, library, id and event namespace (`echo:`).
    private func rename(in file: URL) throws {
        let text = try String(contentsOf: file, encoding: .utf8)
            .replacingOccurrences(of: "TrellisPluginTemplate", with: "TrellisPluginEcho")
            .replacingOccurrences(of: #""id": "template""#, with: #""id": "echo""#)
            .replacingOccurrences(of: "template:", with: "echo:")
        try Data(text.utf8).write(to: file)
    }

    /// `TRELLIS_SOURCE=<this checkout> swift build` in `package`, output to `log`. Waits by
    /// sleeping, not blocking: the build takes a minute, and a blocked thread of the two-thread
    /// cooperative pool of a two-core machine starves every other test's tasks meanwhile.
    private func swiftBuild(in package: URL, log: URL) async throws -> Int32 {
        try Data().write(to: log)
        let output = try FileHandle(forWritingTo: log)
        defer { try? output.close() }
        var environment = ProcessInfo.processInfo.environment
        environment["TRELLIS_SOURCE"] = BuiltPlugins.repository.path
        environment["PATH"] = (environment["PATH"].map { $0 + ":" } ?? "") + "/opt/swift/usr/bin"
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["swift", "build", "--package-path", package.path]
        process.environment = environment
        process.standardOutput = output
        process.standardError = output
        try process.run()
        while process.isRunning { try await Task.sleep(for: .milliseconds(100)) }
        return process.terminationStatus
    }
}
