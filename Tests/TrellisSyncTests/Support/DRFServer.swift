import Foundation
import TrellisCore
@testable import TrellisSync

/// A Django REST Framework server (`drf_notes_server.py` beside this file: a model, a
/// `ModelSerializer`, a `ModelViewSet` on a router, SQLite), run on 127.0.0.1. What it does:
/// server-assigned integer ids; no create on `PUT` (404); unknown members dropped; dates
/// answered with microseconds; every answered write committed to SQLite first. `bash .ci/test`
/// installs Django and DRF from PyPI.
///
/// ```swift
/// try await DRFServer.with(options: [.trailingSlash]) { server in
///     let backup = try await server.snapshot()   // a copy of the database file
///     try await server.crash(restoring: backup)  // killed, restored, started again
/// }
/// ```
final class DRFServer: Sendable {
    /// How the server is set up (`drf_notes_server.py`'s flags).
    struct Options: OptionSet, Sendable {
        let rawValue: Int
        /// DRF's `DefaultRouter()` as is: `/notes/` and `/notes/<id>/`, and Django's redirect
        /// from `/notes` to `/notes/`.
        static let trailingSlash = Options(rawValue: 1)
        /// A model with no `clientId` column: the member is dropped.
        static let withoutClientID = Options(rawValue: 2)
        /// Django's `ConditionalGetMiddleware`: an `ETag` on every GET, 304 to `If-None-Match`.
        static let etag = Options(rawValue: 4)
    }

    let port: Int
    let folder: URL
    let options: Options
    private let process = LockedState<ChildProcess?>(nil)
    /// A client of the test's own, for reads and for "another client's" writes.
    let client = BasicSync(settings: SyncSettings(timeout: 30, retries: 0))

    var baseURL: URL { URL(string: "http://127.0.0.1:\(port)")! }
    var database: URL { folder.appendingPathComponent("notes.sqlite3") }
    static let script = SyncFixtures.repositoryRoot.appendingPathComponent("Tests/TrellisSyncTests/Support/drf_notes_server.py")

    private init(port: Int, folder: URL, options: Options) {
        self.port = port
        self.folder = folder
        self.options = options
    }

    /// Runs `body` with a server holding `notes` (created in order, so given ids are not
    /// kept), and kills the server afterwards.
    static func with<T>(notes: [JSONValue] = [], options: Options = [], isolation: isolated (any Actor)? = #isolation,
                        _ body: (DRFServer) async throws -> T) async throws -> T
    {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("trellis-drf-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let server = DRFServer(port: try ChildProcess.freePort(), folder: folder, options: options)
        defer {
            server.kill()
            try? FileManager.default.removeItem(at: folder)
        }
        try await server.restart()
        for note in notes {
            var attributes = note.objectValue ?? [:]
            attributes["id"] = nil
            attributes["version"] = nil
            _ = try await server.client.send(SyncRequest(.post, server.url(nil), body: .object(attributes)))
        }
        return try await body(server)
    }

    /// The URL of the collection (`id` nil) or of note `id`, as the server's router spells it.
    func url(_ id: String?) -> URL {
        let slash = options.contains(.trailingSlash) ? "/" : ""
        let notes = baseURL.appendingPathComponent("notes")
        return URL(string: (id.map { notes.appendingResourceID($0) } ?? notes).absoluteString + slash)!
    }
}

extension DRFServer: OutsideServer {
    func notes() async throws -> [RemoteResource] {
        let response = try await client.send(SyncRequest(.get, url(nil)))
        return (response.body.arrayValue ?? []).compactMap { RemoteResource(json: $0) }
    }

    func edit(_ id: String, _ attributes: [String: JSONValue]) async throws {
        _ = try await client.send(SyncRequest(.patch, url(id), body: .object(attributes)))
    }

    func remove(_ id: String) async throws {
        _ = try await client.send(SyncRequest(.delete, url(id)))
    }

    func kill() {
        process.withLock { running in
            running?.kill()
            running = nil
        }
    }

    func restart() async throws {
        kill()
        var arguments = ["python3", Self.script.path, "--port", String(port), "--database", database.path]
        if options.contains(.trailingSlash) { arguments.append("--trailing-slash") }
        if options.contains(.withoutClientID) { arguments.append("--without-client-id") }
        if options.contains(.etag) { arguments.append("--etag") }
        let log = folder.appendingPathComponent("server.log")
        let child = try ChildProcess(arguments, output: log)
        process.withLock { $0 = child }
        let deadline = ContinuousClock.now + .seconds(120)
        while ContinuousClock.now < deadline {
            if (try? await client.send(SyncRequest(.get, url(nil)))) != nil { return }
            var status: Int32 = 0
            if waitpid(child.pid, &status, WNOHANG) == child.pid {
                process.withLock { $0 = nil }
                let text = (try? String(contentsOf: log, encoding: .utf8)) ?? ""
                throw NotStarted(log: String(text.suffix(800)))
            }
            try await Task.sleep(for: .milliseconds(50))
        }
        throw ChildProcess.Failure.timedOut(program: "the DRF server (to answer)", after: .seconds(120))
    }

    func snapshot() async throws -> ServerSnapshot {
        let file = folder.appendingPathComponent("backup-\(UUID().uuidString).sqlite3")
        try FileManager.default.copyItem(at: database, to: file)
        return ServerSnapshot(file: file)
    }

    func crash(restoring snapshot: ServerSnapshot) async throws {
        kill()
        try FileManager.default.removeItem(at: database)
        try FileManager.default.copyItem(at: snapshot.file, to: database)
        try await restart()
    }

    /// The DRF server exited at start (Django or DRF missing, or the port taken).
    struct NotStarted: Error, CustomStringConvertible {
        let log: String
        var description: String {
            "the DRF server did not start (bash .ci/test installs Django and DRF; by hand: python3 -m pip install django djangorestframework): \(log)"
        }
    }
}
