import Foundation
import Testing
import TrellisCore
@testable import TrellisSync

/// A REST server no one here wrote, run by the tests on 127.0.0.1: json-server-py, or a
/// Django REST Framework `ModelViewSet`. The fault tests run each case against both.
protocol OutsideServer: AnyObject, Sendable {
    /// What the app is given as its server (the notes are `<baseURL>/notes`).
    var baseURL: URL { get }
    /// The port it listens on (the chaos proxy's backend).
    var port: Int { get }
    /// The notes it lists now, read by a client of the test's own.
    func notes() async throws -> [RemoteResource]
    /// Changes note `id` as another client would (a PATCH).
    func edit(_ id: String, _ attributes: [String: JSONValue]) async throws
    /// Deletes note `id` as another client would.
    func remove(_ id: String) async throws
    /// Kills the server as a crash would (SIGKILL).
    func kill()
    /// Starts it again on its port, with what it kept, and waits until it answers.
    func restart() async throws
    /// What it holds now, to go back to with ``crash(restoring:)``.
    func snapshot() async throws -> ServerSnapshot
    /// Kills it and starts it again holding `snapshot`: json-server-py killed before it wrote
    /// its file, a DRF server restored from a backup. Every write it acknowledged since is gone.
    func crash(restoring snapshot: ServerSnapshot) async throws
}

/// A copy of what an ``OutsideServer`` held (a file beside it).
struct ServerSnapshot: Sendable {
    let file: URL
}

/// The outside servers the fault matrix runs against.
enum ServerKind: String, CaseIterable, Sendable, CustomTestStringConvertible {
    case jsonServerPy = "json-server-py"
    /// Django REST Framework: integer ids, POST-only creates, dates with microseconds.
    case djangoRESTFramework = "Django REST Framework"

    var testDescription: String { rawValue }

    /// Runs `body` with a fresh server of this kind holding `notes`, and kills it afterwards.
    func with<T>(notes: [JSONValue] = [], isolation: isolated (any Actor)? = #isolation,
                 _ body: (any OutsideServer) async throws -> T) async throws -> T
    {
        switch self {
        case .jsonServerPy: return try await JSONServerPy.with(notes: notes) { try await body($0) }
        case .djangoRESTFramework: return try await DRFServer.with(notes: notes) { try await body($0) }
        }
    }
}

extension JSONServerPy: OutsideServer {
    func snapshot() async throws -> ServerSnapshot {
        let file = folder.appendingPathComponent("snapshot-\(UUID().uuidString).json")
        let listed = try await client.send(SyncRequest(.get, notesURL)).body
        try Data(JSONValue.object(["notes": listed]).jsonData()).write(to: file)
        return ServerSnapshot(file: file)
    }

    func crash(restoring snapshot: ServerSnapshot) async throws {
        kill()
        try FileManager.default.removeItem(at: database)
        try FileManager.default.copyItem(at: snapshot.file, to: database)
        try await restart()
    }
}
