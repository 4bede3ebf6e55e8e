import Foundation
import Testing
import TrellisCore
import TrellisStore
@testable import TrellisSync

extension AgainstRealServers {
    /// The fault matrix against json-server-py, a REST server no one here wrote (no versions,
    /// creates on PUT, filters nothing, writes db.json a second late), alone or behind the
    /// fault-injecting proxy. Each test ends with the server and the store holding exactly the
    /// notes typed, each once; conflicts end as copies.
    @Suite("Faults against json-server-py: nothing lost, nothing duplicated")
    @MainActor
    struct JSONServerFaultTests {
        /// Long enough that no answer of a healthy server on a loaded machine misses it: only
        /// the answers the proxy holds back time out.
        static let settings = SyncFixtures.settings(timeout: 5, retries: 0)

        /// A store syncing with `server` through a new proxy.
        private func proxied(_ server: JSONServerPy, url: URL? = nil) async throws -> (SyncedStore, FaultProxy) {
            let proxy = try await FaultProxy.start(backend: server.baseURL)
            return (try SyncedStore(serverURL: proxy.baseURL, url: url, settings: Self.settings), proxy)
        }

        @Test("a create whose answer is lost is found on the server after a restart of the app, not sent again")
        func lostCreateAnswer() async throws {
            try await JSONServerPy.with { server in
                let storeURL = try SyncFixtures.storeURL()
                let (first, proxy) = try await proxied(server, url: storeURL)
                defer { Task { await proxy.stop() } }
                try first.write(["Shopping"], body: "milk")
                try first.write(["Ideas"])
                let shopping = try #require(try first.note(titled: "Shopping")).objectID.uuid.uuidString.lowercased()
                proxy.inject(.forwardThenHang, on: "PUT")
                let lost = try await first.sync.syncNow()
                guard case .timedOut? = lost.failure else { throw UnexpectedReport(report: lost) }
                #expect(lost.pending == 2)
                try first.store.close()

                let reopened = try SyncedStore(serverURL: proxy.baseURL, url: storeURL, settings: Self.settings)
                let report = try await reopened.sync.syncNow()
                #expect(report.failure == nil)
                #expect(report.resolved == 1)
                #expect(report.pushed == 1)
                #expect(proxy.requests.filter { $0 == "PUT /notes/\(shopping)" }.count == 1, "\(proxy.requests)")
                #expect(reopened.sync.capabilities.upsert == true)
                try Convergence.expect(server: try await server.notes(), stores: [reopened],
                                       hold: ["Ideas | ", "Shopping | milk"])
            }
        }

        @Test("a create the server acknowledged, listed and then forgot in a restart waits in the Trash saying so; Restore sends it again")
        func forgottenCreate() async throws {
            try await JSONServerPy.with { server in
                let local = try SyncedStore(serverURL: server.baseURL, settings: Self.settings)
                try local.write(["Only copy"], body: "typed once")
                let created = try await local.sync.syncNow()
                #expect(created.pushed == 1)
                #expect(try await server.notes().count == 1)
                // The server dies before writing db.json, and comes back without the note: to
                // this client that looks exactly like another device deleting it, which must
                // stay a deletion (FaultMatrixTests). Nothing typed is lost: it waits in the Trash.
                server.kill()
                try Data(#"{"notes": []}"#.utf8).write(to: server.database)
                try await server.restart()
                #expect(try await server.notes().isEmpty)

                let report = try await local.sync.syncNow()
                #expect(report.trashed == 1)
                #expect(report.recreated == 0)
                let trashed = try #require(try local.sync.trashedObjects().first)
                #expect(trashed.reason == EntitySync.notOnServer)
                #expect(trashed["body"] == "typed once")
                try #require(try local.sync.restore(trashed.id) != nil)
                try await Convergence.settle(local)
                try Convergence.expect(server: try await server.notes(), stores: [local], hold: ["Only copy | typed once"])
            }
        }

        @Test("a note another client deleted goes to the Trash, and comes back on the server when restored")
        func deletedGoesToTrash() async throws {
            try await JSONServerPy.with { server in
                let local = try SyncedStore(serverURL: server.baseURL, settings: Self.settings)
                try local.write(["Plan"], body: "keep me")
                try await local.sync.syncNow()
                try await local.sync.syncNow()  // a later pass lists it: the server is known to have kept it
                let id = try #require(try await server.notes().first?.id)
                try await server.remove(id)

                let report = try await local.sync.syncNow()
                #expect(report.trashed == 1)
                #expect(try local.lines().isEmpty)
                let trashed = try #require(try local.sync.trashedObjects().first)
                #expect(trashed["title"] == "Plan")
                #expect(trashed["body"] == "keep me")
                #expect(trashed.reason == "deleted on the server")

                #expect(try local.sync.restore(trashed.id) != nil)
                try await Convergence.settle(local)
                #expect(try local.sync.trashedObjects().isEmpty)
                try Convergence.expect(server: try await server.notes(), stores: [local], hold: ["Plan | keep me"])
            }
        }

        @Test("edits made on the server without a version change are pulled, and a concurrent local edit becomes a copy")
        func editsWithoutVersionChange() async throws {
            let stamp: JSONValue = "2026-01-02T03:04:05.000Z"
            let seeded: JSONValue = ["id": "n1", "version": 1, "title": "Plan", "body": "v1", "created": stamp,
                                     "updated": stamp]
            try await JSONServerPy.with(notes: [seeded]) { server in
                let (local, proxy) = try await proxied(server)
                defer { Task { await proxy.stop() } }
                try await local.sync.syncNow()
                try await server.edit("n1", ["body": "v2"])  // the version member stays 1
                let pulled = try await local.sync.syncNow()
                #expect(pulled.updated == 1)
                #expect(try local.lines() == ["Plan | v2"])

                try local.edit("Plan", body: "mine")
                try await server.edit("n1", ["body": "theirs"])
                let writes = proxy.requests.count
                let report = try await local.sync.syncNow()
                #expect(report.conflicts.count == 1)
                #expect(!proxy.requests.dropFirst(writes).contains("PUT /notes/n1"), "nothing written over their edit")
                try await Convergence.settle(local)
                try Convergence.expect(server: try await server.notes(), stores: [local],
                                       hold: ["Plan (conflict copy) | mine", "Plan | theirs"])
                #expect(try local.sync.conflicts().count == 1)
            }
        }

        @Test("two clients edit one note: the second gets a conflict copy, both end with both texts")
        func concurrentEditsWithoutVersions() async throws {
            try await JSONServerPy.with { server in
                let alice = try SyncedStore(serverURL: server.baseURL, settings: Self.settings)
                let bob = try SyncedStore(serverURL: server.baseURL, settings: Self.settings)
                try alice.write(["Plan"], body: "v1")
                try await alice.sync.syncNow()
                try await bob.sync.syncNow()
                try alice.edit("Plan", body: "Alice's")
                try bob.edit("Plan", body: "Bob's")
                try await alice.sync.syncNow()
                let conflicted = try await bob.sync.syncNow()
                #expect(conflicted.conflicts.count == 1)
                try await Convergence.settle(alice)
                try Convergence.expect(server: try await server.notes(), stores: [alice, bob],
                                       hold: ["Plan (conflict copy) | Bob's", "Plan | Alice's"])
            }
        }

        @Test("the server killed in the middle of a pass and restarted: every note once, after the next passes")
        func killedMidPass() async throws {
            try await JSONServerPy.with { server in
                let local = try SyncedStore(serverURL: server.baseURL, settings: Self.settings)
                let titles = ["one", "two", "three", "four", "five"]
                try local.write(titles)
                let answered = LockedState(0)
                let token = local.bus.watch("network:off") { _ in
                    if answered.withLock({ count in count += 1; return count }) == 3 { server.kill() }
                }
                let interrupted = try await local.sync.syncNow()
                token.cancel()
                guard case .unreachable? = interrupted.failure else { throw UnexpectedReport(report: interrupted) }
                try await server.restart()
                try await Convergence.settle(local)
                try Convergence.expect(server: try await server.notes(), stores: [local], hold: titles.map { "\($0) | " })
            }
        }

        @Test("a note's own change whose answer was lost is recognised on the server, not made a conflict copy")
        func lostUpdateAnswer() async throws {
            try await JSONServerPy.with { server in
                let (local, proxy) = try await proxied(server)
                defer { Task { await proxy.stop() } }
                try local.write(["Plan"], body: "v1")
                try await local.sync.syncNow()
                try local.edit("Plan", body: "v2")
                proxy.inject(.forwardThenHang, on: "PUT")
                let lost = try await local.sync.syncNow()
                guard case .timedOut? = lost.failure else { throw UnexpectedReport(report: lost) }
                let report = try await local.sync.syncNow()
                #expect(report.conflicts.isEmpty)
                #expect(report.pushed == 1)
                try Convergence.expect(server: try await server.notes(), stores: [local], hold: ["Plan | v2"])
            }
        }

        /// A report a test did not expect.
        struct UnexpectedReport: Error {
            let report: SyncReport
        }
    }
}
