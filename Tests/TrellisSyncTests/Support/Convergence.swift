import Foundation
import Testing
import TrellisCore
@testable import TrellisSync

/// How a fault test ends: passes until one pushes everything and pulls, then the server's
/// notes and the store's, compared line by line (`title | body`), each note once.
@MainActor
enum Convergence {
    /// Runs passes until one ends with nothing queued and no failure (at most `passes`).
    @discardableResult
    static func settle(_ local: SyncedStore, passes: Int = 4, sourceLocation: SourceLocation = #_sourceLocation)
        async throws -> SyncReport
    {
        var report = SyncReport()
        for _ in 0..<passes {
            report = try await local.sync.syncNow()
            if report.failure == nil && report.pending == 0 { return report }
        }
        Issue.record("still not settled after \(passes) passes: \(report)", sourceLocation: sourceLocation)
        return report
    }

    /// The notes as `title | body` lines, sorted.
    nonisolated static func lines(_ resources: [RemoteResource]) -> [String] {
        resources.map { "\($0.attributes["title"]?.stringValue ?? "?") | \($0.attributes["body"]?.stringValue ?? "")" }
            .sorted()
    }

    /// Expects the server and every store to hold exactly `expected` (sorted lines), and
    /// the server each client id at most once.
    static func expect(server resources: [RemoteResource], stores: [SyncedStore], hold expected: [String],
                       sourceLocation: SourceLocation = #_sourceLocation) throws
    {
        #expect(lines(resources) == expected.sorted(), "server", sourceLocation: sourceLocation)
        for (index, store) in stores.enumerated() {
            #expect(try store.lines() == expected.sorted(), "store \(index + 1)", sourceLocation: sourceLocation)
            #expect(try store.sync.pendingCount() == 0, "store \(index + 1) has nothing queued",
                    sourceLocation: sourceLocation)
        }
        let clientIDs = resources.compactMap { $0.attributes["clientId"]?.stringValue }
        #expect(Set(clientIDs).count == clientIDs.count, "a client id twice on the server: \(clientIDs)",
                sourceLocation: sourceLocation)
        let ids = resources.compactMap(\.id)
        #expect(Set(ids).count == ids.count, "an id twice on the server: \(ids)", sourceLocation: sourceLocation)
    }
}
