import Foundation
import Testing
import TrellisCore
import TrellisStore
@testable import TrellisSync
import TrellisTesting

extension AgainstRealServers {
    /// A server without `ETag`s (json-server-py) answering a pass with the same list, byte for
    /// byte, as the last pass that took one in whole: nothing is compared again — unless the
    /// pass wrote, or has changes queued. Every change still arrives, and a write the server
    /// loses is still sent again.
    @Suite("An unchanged list from a server without ETags")
    @MainActor
    struct UnchangedListTests {
        @Test("the same list is not compared again; a change elsewhere, an edit here and a lost write are")
        func sameListSkipped() async throws {
            try await JSONServerPy.with { server in
                let settings = SyncFixtures.settings(retries: 0)
                let lists = ListReads(BasicSync(settings: settings))
                let local = try SyncedStore(serverURL: server.baseURL, settings: settings, transport: lists)
                try local.write(["Plan"], body: "v1")
                let created = try await local.sync.syncNow()
                #expect(created.pushed == 1 && !created.listUnchanged)
                #expect(try await !local.sync.syncNow().listUnchanged)  // sees the create kept, remembers the list
                #expect(lists.last?.parsed == true)
                #expect(try await local.sync.syncNow().listUnchanged)
                // That list was asked for with the digest of the one before, and not parsed.
                #expect(lists.last?.namedDigest == true && lists.last?.parsed == false, "\(String(describing: lists.last))")

                // Another client's change makes another list: compared, pulled.
                let id = try #require(try await server.notes().first?.id)
                try await server.edit(id, ["body": "from elsewhere"])
                let pulled = try await local.sync.syncNow()
                #expect(!pulled.listUnchanged && pulled.updated == 1)
                #expect(try local.lines() == ["Plan | from elsewhere"])
                #expect(try await local.sync.syncNow().listUnchanged)

                // The server's file once it holds that state: what it comes back to below.
                var remembered = Data()
                #expect(await eventually {
                    remembered = (try? Data(contentsOf: server.database)) ?? Data()
                    return String(decoding: remembered, as: UTF8.self).contains("from elsewhere")
                })

                // A change queued here: the pass that pushes it compares the list.
                try local.edit("Plan", body: "v2")
                let pushed = try await local.sync.syncNow()
                #expect(pushed.pushed == 1 && !pushed.listUnchanged)
                #expect(lists.last?.namedDigest == false && lists.last?.parsed == true, "\(String(describing: lists.last))")
                // The server dies before writing its file: back at the very list remembered
                // before the write, it has lost the write, which is sent again.
                server.kill()
                try remembered.write(to: server.database)
                try await server.restart()
                #expect(try await server.notes().first?.attributes["body"] == "from elsewhere")
                let rewritten = try await local.sync.syncNow()
                #expect(!rewritten.listUnchanged && rewritten.rewritten == 1, "\(rewritten)")
                try await Convergence.settle(local)
                try Convergence.expect(server: try await server.notes(), stores: [local], hold: ["Plan | v2"])
                #expect(try local.sync.conflicts().isEmpty)
            }
        }
    }
}

/// A transport that sends through another and keeps, for each `GET` of the collection (a URL
/// ending in `/notes`), whether it named a digest (``SyncRequest/knownBodyDigest``) and whether
/// its answer came parsed; `last` is the latest.
private final class ListReads: Sync {
    struct Read: Sendable, CustomStringConvertible {
        let namedDigest: Bool
        let parsed: Bool
        var description: String { "digest named: \(namedDigest), parsed: \(parsed)" }
    }

    private let transport: any Sync
    private let reads = LockedState<[Read]>([])

    init(_ transport: any Sync) {
        self.transport = transport
    }

    var last: Read? { reads.withLock { $0.last } }

    func send(_ request: SyncRequest) async throws(SyncError) -> SyncResponse {
        let response = try await transport.send(request)
        if request.method == .get, request.url.path.hasSuffix("/notes") {
            reads.withLock { $0.append(Read(namedDigest: request.knownBodyDigest != nil, parsed: response.body != .null)) }
        }
        return response
    }
}
