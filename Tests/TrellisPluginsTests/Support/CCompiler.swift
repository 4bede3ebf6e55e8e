import Foundation
import TrellisCore
import TrellisTesting

/// Compiles a plugin written in C, from `trellis_plugin.h` alone, into a shared library at
/// test time: what a plugin author outside the project does.
///
/// Each distinct source (with its definitions and header folder) is compiled once per test
/// process and copied for every later use: `cc` runs while the calling task waits, holding a
/// thread of Swift concurrency's pool, and on a loaded two-core machine dozens of compiles
/// starved the shells the tests drive.
enum CCompiler {
    struct Failure: Error, CustomStringConvertible {
        let status: Int32
        var description: String { "cc exited with status \(status)" }
    }

    /// The libraries built so far, by what they were built from.
    private static let built = LockedState<[String: URL]>([:])

    /// Compiles `source` (with `-D` `definitions`) into the shared library `output`.
    /// `include`: the folder of `trellis_plugin.h` (the source tree's, unless a test builds an
    /// old plugin against an old header).
    static func build(_ source: String, definitions: [String] = [], include: String? = nil, to output: URL) throws {
        let include = include ?? BuiltPlugins.repository.appendingPathComponent("Sources/TrellisPluginABI/include").path
        let key = ([include] + definitions + [source]).joined(separator: "\u{0}")
        if let library = built.withLock({ $0[key] }) {
            try? FileManager.default.removeItem(at: output)
            try FileManager.default.copyItem(at: library, to: output)
            return
        }
        let sourceFile = output.deletingPathExtension().appendingPathExtension("c")
        try Data(source.utf8).write(to: sourceFile)
        defer { try? FileManager.default.removeItem(at: sourceFile) }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["cc", "-shared", "-fPIC", "-I", include] + definitions + ["-o", output.path, sourceFile.path]
        try process.runOneAtATime()
        process.waitUntilExit()
        guard process.terminationStatus == 0 else { throw Failure(status: process.terminationStatus) }
        let kept = try TestFolder.make("cc").appendingPathComponent(output.lastPathComponent)
        try FileManager.default.copyItem(at: output, to: kept)
        built.withLock { $0[key] = kept }
    }
}
