import Foundation
import Testing
@testable import TrellisPlugins
import TrellisCore
import TrellisTesting

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

        // It also reads a file and connects to a loopback port when asked: what its grants allow.
        try Data(Self.reach.utf8).write(to: package.appendingPathComponent("Sources/Reach.swift"))
        let service = package.appendingPathComponent("Sources/TemplateService.swift")
        try Data(try String(contentsOf: service, encoding: .utf8).replacingOccurrences(
            of: "        bus.watch(Self.ping, owner: self) { service, event in",
            with: "        Reach.answer(on: bus, owner: self)\n        bus.watch(Self.ping, owner: self) { service, event in").utf8).write(to: service)

        let log = sandbox.root.appendingPathComponent("build.log")
        let status = try await swiftBuild(in: package, log: log)
        let output = (try? String(contentsOf: log, encoding: .utf8)) ?? ""
        try #require(status == 0, "swift build failed:\n\(output.suffix(3000))")

        // A folder and a loopback port granted to it, a file and a port that are not.
        let granted = try TestFolder.make("echo-granted"), other = try TestFolder.make("echo-other")
        try Data("granted text".utf8).write(to: granted.appendingPathComponent("note.txt"))
        try Data("secret text".utf8).write(to: other.appendingPathComponent("note.txt"))
        let server = try LoopbackServer(), closed = try LoopbackServer()
        var manifest = try JSONValue(jsonData: Data(contentsOf: package.appendingPathComponent("plugin.json")))
        manifest["permissions"] = ["files": .object([granted.path: "read"]), "network": [.string("127.0.0.1:\(server.port)")]]
        try manifest.jsonData().write(to: package.appendingPathComponent("plugin.json"))

        let harness = PluginHarness(searchPaths: [PluginSearchPath(directory: package, origin: .commandLine)],
                                    settingsURL: sandbox.settingsURL, environment: sandbox.environment)
        let pongs = harness.record("echo:pong")
        let report = try #require(await harness.load()[id: "echo"])
        #expect(report.state == .loaded, "\(report)")
        #expect(report.library?.path.contains("/.build/") == true)

        harness.bus.trigger("echo:ping", "out of tree")  // its own namespace: no permission needed
        #expect(try await pongs.settled(count: 1) == [#"echo:pong {"greeting":"pong","ping":"out of tree"}"#])

        // A Swift plugin using a granted folder and a granted loopback port; in its own
        // process, nothing else.
        let reached = EventRecorder(bus: harness.bus, pattern: "echo:reached")
        for (folder, port) in [(granted, server.port), (other, closed.port)] {
            harness.bus.trigger("echo:reach", ["path": .string(folder.appendingPathComponent("note.txt").path), "port": .number(Double(port))])
        }
        let answers = try await reached.wait(for: "echo:reached", count: 2).map(\.data)
        #expect(answers.first == ["read": "granted text", "connected": true], "\(answers)")
        if let kernel = PluginConfinementReport.probe() {
            #expect(answers.last?["read"] == (kernel.landlockFiles ? "" : "secret text"), "\(answers)")
            #expect(answers.last?["connected"] == .bool(!kernel.landlockNetwork), "\(answers)")
        }
        #expect(server.received() == "hello")
    }

    /// Reach.swift, added to the copy: on `echo:reach` {path, port} it reads the file and
    /// connects to the port on 127.0.0.1, and says what it managed in `echo:reached`.
    static let reach = """
        import Glibc
        import TrellisPluginSDK

        enum Reach {
            static func answer(on bus: PluginBus, owner: AnyObject) {
                bus.watch("echo:reach", owner: owner) { event in
                    let text = read(event.data["path"]?.stringValue ?? "")
                    let connected = connect(Int(event.data["port"]?.doubleValue ?? 0))
                    bus.trigger("echo:reached", ["read": .string(text), "connected": .bool(connected)])
                }
            }

            static func read(_ path: String) -> String {
                let fd = open(path, O_RDONLY)
                guard fd >= 0 else { return "" }
                defer { close(fd) }
                var bytes = [UInt8](repeating: 0, count: 256)
                let count = Glibc.read(fd, &bytes, bytes.count)
                return count > 0 ? String(decoding: bytes[..<count], as: UTF8.self) : ""
            }

            static func connect(_ port: Int) -> Bool {
                let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
                guard fd >= 0 else { return false }
                defer { close(fd) }
                var address = sockaddr_in()
                address.sin_family = sa_family_t(AF_INET)
                address.sin_port = UInt16(port).bigEndian
                address.sin_addr.s_addr = inet_addr("127.0.0.1")
                let connected = withUnsafePointer(to: &address) { pointer in
                    pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                        Glibc.connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) == 0
                    }
                }
                return connected && write(fd, "hello", 5) == 5
            }
        }
        """

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
        try process.runOneAtATime()
        while process.isRunning { try await Task.sleep(for: .milliseconds(100)) }
        return process.terminationStatus
    }
}
