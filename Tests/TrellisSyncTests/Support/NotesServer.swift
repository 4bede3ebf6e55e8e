import FlyingFox
import FlyingSocks
import Foundation
import Synchronization
import TrellisCore

/// A real REST server for the tests, on 127.0.0.1 and a free port, built on FlyingFox: an
/// in-memory notes collection at `/notes` with ids and versions, speaking the contract of
/// `Sources/TrellisSync/README-section.md`, and switches that make it misbehave.
///
/// ```swift
/// let server = try await NotesServer.start()
/// server.failNext(2, status: 500)        // the next two requests get HTTP 500
/// server.delay = .seconds(2)             // answers come late (client timeouts)
/// server.malformed = true                // 2xx answers are not JSON
/// await server.stop()                    // connections are refused...
/// try await server.restart()             // ...until it listens again, on the same port
/// ```
final class NotesServer: Sendable {
    /// One stored note.
    struct Note: Sendable, Equatable {
        let id: String
        var version: Int
        var attributes: [String: TrellisCore.JSONValue]

        var json: TrellisCore.JSONValue {
            var object = attributes
            object["id"] = .string(id)
            object["version"] = .number(Double(version))
            return .object(object)
        }
    }

    /// One request as the server received it.
    struct Received: Sendable, Equatable {
        let method: String
        let path: String
        let authorization: String?
        let ifMatch: String?
        let body: TrellisCore.JSONValue?
    }

    struct State {
        var notes: [Note] = []
        var nextID = 1
        var failures: (count: Int, status: Int) = (0, 500)
        var delay: Duration?
        var malformed = false
        var requiredToken: String?
        var dropsMembers: Set<String> = []
        var received: [Received] = []
        var answered = 0
    }

    let state = LockedState(State())
    private let running = LockedState<(server: HTTPServer, task: Task<Void, any Error>)?>(nil)
    /// The port the server listens on, the same after a restart.
    let port: UInt16

    private init(port: UInt16) {
        self.port = port
    }

    /// Starts a server on 127.0.0.1 and a port the system picks.
    static func start() async throws -> NotesServer {
        var (server, task, port) = try await listen(port: 0)
        while !TestPorts.claim(Int(port)) {  // another server of this process has it: see TestPorts
            await server.stop(timeout: 0)
            task.cancel()
            (server, task, port) = try await listen(port: 0)
        }
        let notes = NotesServer(port: port)
        await server.appendRoute("*", to: NotesHandler(owner: notes))
        notes.running.withLock { $0 = (server, task) }
        return notes
    }

    /// `http://127.0.0.1:<port>`.
    var baseURL: URL { URL(string: "http://127.0.0.1:\(port)")! }

    /// `http://127.0.0.1:<port>/notes`.
    var notesURL: URL { baseURL.appendingPathComponent("notes") }

    /// Closes the listening socket and every connection: requests are refused from now on.
    func stop() async {
        guard let (server, task) = running.withLock({ running in defer { running = nil }; return running }) else { return }
        await server.stop(timeout: 0)
        task.cancel()
        _ = await task.result
    }

    /// Listens again on the same port, with the same notes.
    func restart() async throws {
        let (server, task, _) = try await Self.listen(port: port)
        await server.appendRoute("*", to: NotesHandler(owner: self))
        running.withLock { $0 = (server, task) }
    }

    private static func listen(port: UInt16) async throws -> (HTTPServer, Task<Void, any Error>, UInt16) {
        // FlyingFox answers 500 to a request its handler has not answered within `timeout`, and
        // the client retries a 500: under ThreadSanitizer a starved handler once took over 5 s,
        // so the server saw a request twice where the test expects it once. The deadline is
        // for a failure only.
        let server = HTTPServer(address: try .inet(ip4: "127.0.0.1", port: port),
                                timeout: SyncFixtures.serverDeadline, logger: .disabled)
        let task = Task { try await server.run() }
        try await server.waitUntilListening(timeout: SyncFixtures.serverDeadline)
        guard case .ip4(_, let actual)? = await server.listeningAddress else {
            throw URLError(.cannotConnectToHost)
        }
        return (server, task, actual)
    }

    // MARK: - Switches

    /// The next `count` requests are answered `status` with a JSON error body.
    func failNext(_ count: Int, status: Int = 500) { state.withLock { $0.failures = (count, status) } }

    /// How long the server waits before answering (`nil`: at once).
    var delay: Duration? {
        get { state.withLock { $0.delay } }
        set { state.withLock { $0.delay = newValue } }
    }

    /// Whether 2xx answers carry a body that is not JSON.
    var malformed: Bool {
        get { state.withLock { $0.malformed } }
        set { state.withLock { $0.malformed = newValue } }
    }

    /// Members the server does not store (as a server with a fixed schema drops unknown ones).
    var dropsMembers: Set<String> {
        get { state.withLock { $0.dropsMembers } }
        set { state.withLock { $0.dropsMembers = newValue } }
    }

    /// The bearer token requests must carry (`nil`: none needed); others get 401.
    var requiredToken: String? {
        get { state.withLock { $0.requiredToken } }
        set { state.withLock { $0.requiredToken = newValue } }
    }

    // MARK: - Server-side state, as another client would change it

    /// How many requests were answered so far.
    var answered: Int { state.withLock { $0.answered } }

    /// Every request received, in order.
    var received: [Received] { state.withLock { $0.received } }

    /// The stored notes, in creation order.
    var notes: [Note] { state.withLock { $0.notes } }

    /// The stored note `id`.
    func note(_ id: String) -> Note? { state.withLock { $0.notes.first { $0.id == id } } }

    /// Adds a note (version 1), as another client would.
    @discardableResult
    func seed(_ attributes: [String: TrellisCore.JSONValue]) -> Note {
        state.withLock { $0.create(attributes) }
    }

    /// Changes note `id` (its version grows), as another client would.
    func edit(_ id: String, _ attributes: [String: TrellisCore.JSONValue]) {
        state.withLock { state in
            guard let index = state.notes.firstIndex(where: { $0.id == id }) else { return }
            state.notes[index].attributes.merge(attributes) { _, new in new }
            state.notes[index].version += 1
        }
    }

    /// Deletes note `id`, as another client would.
    func remove(_ id: String) { state.withLock { $0.notes.removeAll { $0.id == id } } }
}

extension NotesServer.State {
    mutating func create(_ attributes: [String: TrellisCore.JSONValue]) -> NotesServer.Note {
        var attributes = attributes.filter { !dropsMembers.contains($0.key) }
        attributes["id"] = nil
        attributes["version"] = nil
        let note = NotesServer.Note(id: String(nextID), version: 1, attributes: attributes)
        nextID += 1
        notes.append(note)
        return note
    }
}
