import Foundation
import XCTest

/// The installed (release) `trellis` carries the Swift runtime inside it (Package.swift says
/// why). What it opens at run time (libTrellisHTTP.so) links the shared runtime and loads that
/// copy beside it, and the plugins run in `libexec/trellis/trellis-plugin-host`: these checks
/// run both in the installed tree, where no test bundle's runtime is around to hide a mistake.
extension InstallTests {
    /// `bin/trellis` needs none of the Swift runtime's shared libraries.
    func checkRuntimeIsInside(_ trellis: URL) throws {
        let dynamic = try CommandRunner.tool("readelf", ["--dynamic", trellis.path])
        XCTAssertEqual(dynamic.status, 0, dynamic.stderr)
        let needed = dynamic.stdout.split(separator: "\n").filter { $0.contains("(NEEDED)") }
        XCTAssertFalse(needed.isEmpty, dynamic.stdout)
        for library in ["libswiftCore.so", "libFoundation.so", "libdispatch.so"] {
            XCTAssertFalse(needed.contains { $0.contains("[\(library)]") }, "bin/trellis links \(library):\n\(needed.joined(separator: "\n"))")
        }
    }

    /// The Location plugin, a Swift library, run by the installed plugin host: its page fills
    /// and its status item reaches the shell.
    func checkSwiftPluginInItsProcess(tree: URL, environment: [String: String], directory: URL) throws {
        XCTAssertTrue(FileManager.default.isExecutableFile(atPath: tree.appendingPathComponent("libexec/trellis/trellis-plugin-host").path))
        let script = tree.appendingPathComponent("location-script.txt")
        // The status item comes from the plugin's process when it likes: waited for, then printed.
        try Data("navigate /location\nexpect Location: 48.85840, 2.29450\nprint\n".utf8).write(to: script)
        let trellis = tree.appendingPathComponent("bin/trellis")
        let run = try CommandRunner.run(trellis, ["--headless", "--script", script.path], environment: environment, directory: directory)
        XCTAssertEqual(run.status, 0, run.stderr)
        XCTAssertTrue(run.stdout.contains("< Location History"), run.stdout + run.stderr)
        XCTAssertTrue(run.stdout.contains("| 48.85840, 2.29450 | ±12 m"), "a row of the history:\n" + run.stdout)
        XCTAssertTrue(run.stdout.contains("-- Location: 48.85840, 2.29450 ±12 m"), "the status item:\n" + run.stdout)
    }

    /// `trellis sync` opens libTrellisHTTP.so (URLSession, with its own copy of the runtime)
    /// and gets an answer back across its C boundary: from Python's own HTTP server, serving
    /// an empty `notes` collection.
    func checkHTTPLibrary(_ trellis: URL, environment: [String: String], work: URL) throws {
        let server = try StaticHTTPServer(serving: try StaticHTTPServer.emptyNotes(in: work))

        let sync = try CommandRunner.run(trellis, ["sync", "--server", server.url], environment: environment)
        XCTAssertEqual(sync.status, 0, sync.stdout + sync.stderr)
        XCTAssertTrue(sync.stdout.contains("server     \(server.url)/notes"), sync.stdout)
        XCTAssertTrue(sync.stdout.contains("received   0 new, 0 changed, 0 to the Trash"), sync.stdout)
    }
}
