import Foundation
import Testing
import TrellisCore
import TrellisStore
import TrellisSync
import TrellisTesting

/// Shared test material: the demo model, temporary stores, fast sync settings, a server
/// that is always stopped.
enum SyncFixtures {
    /// The repository root, found from this file's path.
    static let repositoryRoot = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent()

    /// `data/model.json`: the demo application's model, with the sync entities.
    static func demoModel() throws -> ManagedObjectModel {
        try ManagedObjectModel(contentsOf: repositoryRoot.appendingPathComponent("data/model.json"))
    }

    /// A store path in a fresh temporary directory.
    static func storeURL() throws -> URL {
        try TestFolder.make("sync").appendingPathComponent("notes.sqlite")
    }

    /// How long a test server may take to listen, and its handler to answer before the server
    /// answers 500 itself: a deadline for a failure only, stretched by `testPatience`. Under
    /// ThreadSanitizer the parallel suites once held a server back for more than 30 s, and a
    /// handler for more than 5 s. (Tests of slow answers set ``NotesServer/delay`` and stop the
    /// server, which ends the handler.)
    static var serverDeadline: TimeInterval { 30 * testPatience }

    /// Settings that keep tests fast: quick retries, and a timeout no healthy answer misses
    /// on a loaded machine (tests of timeouts give their own).
    static func settings(timeout: TimeInterval = 10 * testPatience, retries: Int = 1, token: String? = nil) -> SyncSettings {
        SyncSettings(bearerToken: token, timeout: timeout, retries: retries, backoff: 0.02, maximumBackoff: 0.05)
    }

    /// Runs `body` with a fresh server, in the caller's isolation, and stops the server
    /// afterwards whatever happens.
    static func withServer<T>(isolation: isolated (any Actor)? = #isolation,
                              _ body: (NotesServer) async throws -> T) async throws -> T
    {
        let server = try await NotesServer.start()
        do {
            let result = try await body(server)
            await server.stop()
            return result
        } catch {
            await server.stop()
            throw error
        }
    }
}
