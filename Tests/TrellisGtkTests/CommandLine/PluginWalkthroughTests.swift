import Foundation
import Testing

/// The README's "Writing a plugin" steps, taken from the README itself and run as a reader
/// would run them (their folder under a temporary HOME, `/path/to/trellis` this checkout,
/// `trellis` this build): the copied template builds and loads, in a process of its own.
@Suite("README: writing a plugin")
struct PluginWalkthroughTests {
    @Test("the README's plugin steps, run literally, build a plugin that trellis plugins lists as loaded")
    func walkthrough() throws {
        let readme = try String(contentsOf: CommandRunner.packageRoot.appendingPathComponent("README.md"), encoding: .utf8)
        let section = try #require(readme.components(separatedBy: "### Writing a plugin").dropFirst().first)
        let block = try #require(section.components(separatedBy: "```sh\n").dropFirst().first?.components(separatedBy: "```").first)
        #expect(block.contains("cp -r plugins/Template"), "the steps start from the template:\n\(block)")

        let home = FileManager.default.temporaryDirectory.appendingPathComponent("trellis-readme-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: home.appendingPathComponent("dev"), withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: home) }
        let bin = home.appendingPathComponent("bin")
        try FileManager.default.createDirectory(at: bin, withIntermediateDirectories: true)
        try FileManager.default.createSymbolicLink(at: bin.appendingPathComponent("trellis"), withDestinationURL: AppDriver.executable)
        let script = block.replacingOccurrences(of: "/path/to/trellis", with: CommandRunner.packageRoot.path)
        let result = try CommandRunner.run(URL(fileURLWithPath: "/bin/bash"), ["-euo", "pipefail", "-c", script],
                                           environment: ["HOME": home.path, "PATH": "\(bin.path):\(ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin")"],
                                           directory: CommandRunner.packageRoot, timeout: 600)
        #expect(result.status == 0, "the steps failed:\n\(result.stdout)\n\(result.stderr)")
        let line = result.stdout.split(separator: "\n").first { $0.hasPrefix("greeter ") }
        #expect(line?.contains("loaded") == true, "trellis plugins printed:\n\(result.stdout)\n\(result.stderr)")
        #expect(line?.contains("command line") == true)
    }
}
