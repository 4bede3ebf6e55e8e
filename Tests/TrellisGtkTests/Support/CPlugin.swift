import Foundation

/// Plugins in C for the window and command-line tests, built at test time from
/// `trellis_plugin.h` alone, as a plugin author outside the project builds one.
enum CPlugin {
    struct Failure: Error, CustomStringConvertible {
        let output: String
        var description: String { "cc failed: \(output)" }
    }

    /// Compiles the C file `source` into the shared library `library`.
    static func compile(_ source: URL, to library: URL) throws {
        let include = CommandRunner.packageRoot.appendingPathComponent("Sources/TrellisPluginABI/include").path
        let compiled = try CommandRunner.tool("cc", ["-shared", "-fPIC", "-I", include, "-o", library.path, source.path])
        guard compiled.status == 0 else { throw Failure(output: compiled.stderr) }
    }
}
