import Foundation
import TrellisCore
import TrellisTesting

/// json-server-py (PyPI; `bash .ci/test` installs it), a REST server Trellis did not write,
/// serving `/notes` from a `db.json` on a free loopback port, for the window's tests with a
/// server that takes writes; and "another client" that changes its notes over HTTP.
///
/// ```swift
/// let server = try JSONServerPy(in: folder)
/// let app = try AppDriver(arguments: ["--server", server.url], path: "/notes")
/// try server.request("DELETE", "/notes/1")
/// ```
final class JSONServerPy {
    /// The server's address, `http://127.0.0.1:PORT`.
    let url: String
    private let process = Process()

    /// Starts the server on an empty `notes` collection kept in `folder`; returns once it answers.
    init(in folder: URL) throws {
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let database = folder.appendingPathComponent("db.json")
        try Data(#"{"notes": []}"#.utf8).write(to: database)
        // A port the system gives as free, closed at once and taken by the server (as the sync's tests do).
        let port = try CommandRunner.run(URL(fileURLWithPath: "/usr/bin/env"), ["python3", "-c", """
            import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])
            """]).stdout.trimmingCharacters(in: .whitespacesAndNewlines)
        url = "http://127.0.0.1:\(port)"
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["python3", "-m", "json_server.cli", "-b", "127.0.0.1:\(port)", database.path]
        process.standardOutput = FileHandle.nullDevice
        process.standardError = try FileHandle(forWritingTo: {
            let log = folder.appendingPathComponent("server.log")
            _ = FileManager.default.createFile(atPath: log.path, contents: nil)
            return log
        }())
        try process.runOneAtATime()
        let deadline = Date().addingTimeInterval(60)
        while (try? request("GET", "/notes")) == nil {
            guard process.isRunning, Date() < deadline else {
                process.terminate()
                let log = (try? String(contentsOf: folder.appendingPathComponent("server.log"), encoding: .utf8)) ?? ""
                throw NotStarted(log: String(log.suffix(600)))
            }
            usleep(100_000)
        }
    }

    /// Sends `method path` with `body` (JSON) as another client would; returns the answer's
    /// JSON (null when empty), or throws when the server does not answer 2xx.
    @discardableResult
    func request(_ method: String, _ path: String, _ body: JSONValue? = nil) throws -> JSONValue {
        let run = try CommandRunner.run(URL(fileURLWithPath: "/usr/bin/env"), ["python3", "-c", """
            import sys, urllib.request
            data = sys.argv[3].encode() if sys.argv[3] else None
            request = urllib.request.Request(sys.argv[1], data=data, method=sys.argv[2], headers={"Content-Type": "application/json"})
            print(urllib.request.urlopen(request, timeout=10).read().decode())
            """, url + path, method, body.map { String(decoding: $0.jsonData(), as: UTF8.self) } ?? ""], timeout: 30)
        guard run.status == 0 else { throw RequestFailed(request: "\(method) \(path)", stderr: run.stderr) }
        let text = run.stdout.trimmingCharacters(in: .whitespacesAndNewlines)
        return text.isEmpty ? .null : try JSONValue(jsonString: text, source: "\(method) \(path)")
    }

    struct NotStarted: Error, CustomStringConvertible {
        let log: String
        var description: String { "json-server-py did not start (is it installed? bash .ci/test installs it): \(log)" }
    }

    struct RequestFailed: Error, CustomStringConvertible {
        let request: String
        let stderr: String
        var description: String { "\(request) failed: \(stderr.suffix(400))" }
    }

    deinit {
        process.terminate()
        process.waitUntilExit()
    }
}
