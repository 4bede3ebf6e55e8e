import Foundation

/// Compiles a plugin written in C, from `trellis_plugin.h` alone, into a shared library at
/// test time: what a plugin author outside the project does.
enum CCompiler {
    struct Failure: Error, CustomStringConvertible {
        let status: Int32
        var description: String { "cc exited with status \(status)" }
    }

    /// Compiles `source` (with `-D` `definitions`) into the shared library `output`.
    /// `include`: the folder of `trellis_plugin.h` (the source tree's, unless a test builds an
    /// old plugin against an old header).
    static func build(_ source: String, definitions: [String] = [], include: String? = nil, to output: URL) throws {
        let sourceFile = output.deletingPathExtension().appendingPathExtension("c")
        try Data(source.utf8).write(to: sourceFile)
        defer { try? FileManager.default.removeItem(at: sourceFile) }
        let include = include ?? BuiltPlugins.repository.appendingPathComponent("Sources/TrellisPluginABI/include").path
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["cc", "-shared", "-fPIC", "-I", include] + definitions + ["-o", output.path, sourceFile.path]
        try process.run()
        process.waitUntilExit()
        guard process.terminationStatus == 0 else { throw Failure(status: process.terminationStatus) }
    }
}
