import Foundation
import TrellisTesting

/// Python's own `http.server` serving the files of a folder on a free loopback port: a server
/// Trellis did not write (an empty `notes` collection is a file `notes` holding `[]`).
final class StaticHTTPServer {
    /// The server's address, `http://127.0.0.1:PORT`.
    let url: String
    private let process = Process()

    /// Starts serving `folder`; returns once the server listens.
    init(serving folder: URL) throws {
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        // Port 0: the system picks a free one, which the server prints before it serves.
        process.arguments = ["python3", "-u", "-c", """
            import functools, http.server, sys
            handler = functools.partial(http.server.SimpleHTTPRequestHandler, directory=sys.argv[1])
            server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
            print(server.server_address[1], flush=True)
            server.serve_forever()
            """, folder.path]
        let output = Pipe()
        process.standardOutput = output
        process.standardError = FileHandle.nullDevice
        try process.runOneAtATime()
        let firstLine = String(decoding: output.fileHandleForReading.availableData, as: UTF8.self)
        guard let port = Int(firstLine.trimmingCharacters(in: .whitespacesAndNewlines)) else {
            process.terminate()
            throw NotStarted(firstLine: firstLine)
        }
        url = "http://127.0.0.1:\(port)"
    }

    struct NotStarted: Error, CustomStringConvertible {
        let firstLine: String
        var description: String { "python3's http.server did not start (it printed \(firstLine.debugDescription))" }
    }

    /// A folder holding an empty `notes` collection, in `parent`.
    static func emptyNotes(in parent: URL) throws -> URL {
        let served = parent.appendingPathComponent("served")
        try FileManager.default.createDirectory(at: served, withIntermediateDirectories: true)
        try Data("[]".utf8).write(to: served.appendingPathComponent("notes"))
        return served
    }

    deinit {
        process.terminate()
        process.waitUntilExit()
    }
}
