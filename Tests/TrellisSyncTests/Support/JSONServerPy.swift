import Foundation
import TrellisCore
@testable import TrellisSync

/// json-server-py (PyPI; `bash .ci/test` installs it), a REST server no one here wrote, run
/// on 127.0.0.1 as `python3 -m json_server.cli -b 127.0.0.1:PORT db.json`. What it does:
/// `/notes` and `/notes/<id>`; no versions, no ETag; `?field=` filters nothing; a client's
/// `id` is kept on POST without a uniqueness check; `PUT /notes/<id>` to an unknown id
/// creates it; `db.json` is written about a second after the last change, so a kill loses
/// what came later.
///
/// ```swift
/// try await JSONServerPy.with { server in
///     server.kill()                // as a crash: the last second's changes are gone
///     try await server.restart()   // same port, whatever db.json holds
/// }
/// ```
final class JSONServerPy: Sendable {
    let port: Int
    let folder: URL
    private let process = LockedState<ChildProcess?>(nil)
    /// A client of the server's own, for the tests' reads and for "another client's" writes.
    let client = BasicSync(settings: SyncSettings(timeout: 10, retries: 0))

    var baseURL: URL { URL(string: "http://127.0.0.1:\(port)")! }
    var notesURL: URL { baseURL.appendingPathComponent("notes") }
    var database: URL { folder.appendingPathComponent("db.json") }

    private init(port: Int, folder: URL) {
        self.port = port
        self.folder = folder
    }

    /// Runs `body` with a server holding `notes`, and kills the server afterwards.
    static func with<T>(notes: [JSONValue] = [], isolation: isolated (any Actor)? = #isolation,
                        _ body: (JSONServerPy) async throws -> T) async throws -> T
    {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("trellis-json-server-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let server = JSONServerPy(port: try ChildProcess.freePort(), folder: folder)
        try Data(JSONValue.object(["notes": .array(notes)]).jsonData()).write(to: server.database)
        defer {
            server.kill()
            try? FileManager.default.removeItem(at: folder)
        }
        try await server.restart()
        return try await body(server)
    }

    /// Kills the server as a crash would (SIGKILL): changes not yet written to db.json are lost.
    func kill() {
        process.withLock { running in
            running?.kill()
            running = nil
        }
    }

    /// Starts the server (again) on its port with what db.json holds, and waits until it answers.
    func restart() async throws {
        kill()
        let child = try ChildProcess(["python3", "-m", "json_server.cli", "-b", "127.0.0.1:\(port)", database.path],
                                     output: folder.appendingPathComponent("server.log"))
        process.withLock { $0 = child }
        let deadline = ContinuousClock.now + .seconds(60)
        while ContinuousClock.now < deadline {
            if (try? await client.send(SyncRequest(.get, notesURL))) != nil { return }
            var status: Int32 = 0
            if waitpid(child.pid, &status, WNOHANG) == child.pid {
                process.withLock { $0 = nil }
                let log = (try? String(contentsOf: folder.appendingPathComponent("server.log"), encoding: .utf8)) ?? ""
                throw NotStarted(log: String(log.suffix(600)))
            }
            try await Task.sleep(for: .milliseconds(50))
        }
        throw ChildProcess.Failure.timedOut(program: "json-server-py (to answer)", after: .seconds(60))
    }

    /// json-server-py exited at start (it is not installed, or the port was taken).
    struct NotStarted: Error, CustomStringConvertible {
        let log: String
        var description: String {
            "json-server-py did not start (bash .ci/test installs it; by hand: python3 -m pip install json-server-py): \(log)"
        }
    }

    /// The notes the server lists now.
    func notes() async throws -> [RemoteResource] {
        let response = try await client.send(SyncRequest(.get, notesURL))
        return (response.body.arrayValue ?? []).compactMap { RemoteResource(json: $0) }
    }

    /// Changes note `id` as another client would: a PATCH, merged into the stored note.
    func edit(_ id: String, _ attributes: [String: JSONValue]) async throws {
        _ = try await client.send(SyncRequest(.patch, notesURL.appendingResourceID(id), body: .object(attributes)))
    }

    /// Deletes note `id` as another client would.
    func remove(_ id: String) async throws {
        _ = try await client.send(SyncRequest(.delete, notesURL.appendingResourceID(id)))
    }
}
