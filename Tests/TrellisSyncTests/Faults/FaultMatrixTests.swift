import Foundation
import Testing
import TrellisCore
import TrellisStore
@testable import TrellisSync

extension AgainstRealServers {
    /// The fault matrix of issue #35, each case against json-server-py and against a Django
    /// REST Framework `ModelViewSet`: what the server forgets, lists wrongly or deletes, and
    /// what the user restores. Each ends with the server's notes and every store's asserted
    /// exactly: nothing lost, nothing silently reverted, nothing twice, conflicts visible.
    @Suite("Fault matrix against json-server-py and Django REST Framework")
    @MainActor
    struct FaultMatrixTests {
        static let settings = SyncFixtures.settings(timeout: 30, retries: 0)

        private func store(_ server: any OutsideServer, url: URL? = nil) throws -> SyncedStore {
            try SyncedStore(serverURL: server.baseURL, url: url, settings: Self.settings)
        }

        /// The server id of the note titled `title`.
        private func id(of title: String, on server: any OutsideServer) async throws -> String {
            let notes = try await server.notes()
            return try #require(notes.first { $0.attributes["title"]?.stringValue == title }?.id, "no note \(title)")
        }

        /// Two passes: the second's pull confirms that the server kept what the first wrote.
        private func syncTwice(_ local: SyncedStore) async throws {
            for _ in 0..<2 {
                let report = try await local.sync.syncNow()
                #expect(report.failure == nil, "\(report)")
            }
        }

        @Test("an edit the server acknowledged and then lost (a crash before its file, a backup restored) is sent again, not reverted",
              arguments: ServerKind.allCases)
        func acknowledgedEditLost(kind: ServerKind) async throws {
            try await kind.with { server in
                let local = try store(server)
                try local.write(["Plan"], body: "v1")
                try await syncTwice(local)
                let kept = try await server.snapshot()
                try local.edit("Plan", body: "v2, typed and acknowledged")
                let pushed = try await local.sync.syncNow()
                #expect(pushed.pushed == 1)
                try await server.crash(restoring: kept)

                let report = try await local.sync.syncNow()
                #expect(report.rewritten == 1, "\(report)")
                #expect(report.updated == 0, "the old text is not taken")
                #expect(try local.lines() == ["Plan | v2, typed and acknowledged"])
                try await Convergence.settle(local)
                try Convergence.expect(server: try await server.notes(), stores: [local],
                                       hold: ["Plan | v2, typed and acknowledged"])
                #expect(try local.sync.conflicts().isEmpty)
            }
        }

        @Test("an acknowledged edit the server lost while another client changed the note: both texts kept, the conflict listed",
              arguments: ServerKind.allCases)
        func acknowledgedEditLostAndChangedElsewhere(kind: ServerKind) async throws {
            try await kind.with { server in
                let local = try store(server)
                try local.write(["Plan"], body: "v1")
                try await syncTwice(local)
                let kept = try await server.snapshot()
                try local.edit("Plan", body: "mine, acknowledged")
                try await local.sync.syncNow()
                try await server.crash(restoring: kept)
                try await server.edit(try await id(of: "Plan", on: server), ["body": "theirs, on the old text"])

                let report = try await local.sync.syncNow()
                #expect(report.conflicts.count == 1, "\(report)")
                try await Convergence.settle(local)
                try Convergence.expect(server: try await server.notes(), stores: [local],
                                       hold: ["Plan (conflict copy) | mine, acknowledged", "Plan | theirs, on the old text"])
                #expect(try local.sync.conflicts().count == 1)
            }
        }

        @Test("an empty list, or one missing notes, trashes nothing: absence is confirmed note by note", arguments: ServerKind.allCases)
        func badListsTrashNothing(kind: ServerKind) async throws {
            try await kind.with { server in
                let proxy = try await FaultProxy.start(backend: server.baseURL)
                defer { Task { await proxy.stop() } }
                let local = try SyncedStore(serverURL: proxy.baseURL, settings: Self.settings)
                let titles = ["one", "two", "three", "four"]
                try local.write(titles)
                try await syncTwice(local)

                proxy.inject(.rewriteAnswer { _ in [] }, on: "GET")
                let empty = try await local.sync.syncNow()
                #expect(empty.trashed == 0)
                #expect(empty.suspectList != nil, "\(empty)")
                proxy.inject(.rewriteAnswer { list in .array(Array(list.arrayValue?.dropFirst() ?? [])) }, on: "GET")
                let short = try await local.sync.syncNow()
                #expect(short.trashed == 0)
                #expect(short.unlisted == 1, "\(short)")
                let next = try await local.sync.syncNow()
                #expect((next.trashed, next.inserted, next.pushed) == (0, 0, 0), "\(next)")

                #expect(try local.sync.trashedObjects().isEmpty)
                try Convergence.expect(server: try await server.notes(), stores: [local], hold: titles.map { "\($0) | " })
            }
        }

        @Test("a note deleted on another device stays deleted, even when its creator has not pulled since creating it",
              arguments: ServerKind.allCases)
        func deletionElsewhereStays(kind: ServerKind) async throws {
            try await kind.with { server in
                let alice = try store(server)
                let bob = try store(server)
                try alice.write(["Kept"], body: "k")
                try await syncTwice(alice)
                try alice.write(["Gone"], body: "written once")
                try await alice.sync.syncNow()  // created; no later pull yet
                try await bob.sync.syncNow()
                let gone = try #require(try bob.editableNote(titled: "Gone"))
                try bob.context.delete(gone)
                try bob.sync.save(bob.context)
                try await bob.sync.syncNow()

                let report = try await alice.sync.syncNow()
                #expect(report.recreated == 0, "\(report)")
                #expect(report.trashed == 1)
                try await Convergence.settle(alice)
                try Convergence.expect(server: try await server.notes(), stores: [alice, bob], hold: ["Kept | k"])
                let trashed = try #require(try alice.sync.trashedObjects().first)
                #expect(trashed["body"] == "written once", "nothing typed is lost: it waits in the Trash")
            }
        }

        @Test("a note changed here after another device deleted it is created again, and the conflict is listed",
              arguments: ServerKind.allCases)
        func changedAfterDeletion(kind: ServerKind) async throws {
            try await kind.with { server in
                let alice = try store(server)
                let bob = try store(server)
                try alice.write(["Plan"], body: "v1")
                try await syncTwice(alice)
                try await bob.sync.syncNow()
                try await server.remove(try await id(of: "Plan", on: server))
                try alice.edit("Plan", body: "changed after the deletion")

                let report = try await alice.sync.syncNow()
                #expect(report.conflicts.count == 1, "\(report)")
                try await Convergence.settle(alice)
                try await Convergence.settle(bob)
                try Convergence.expect(server: try await server.notes(), stores: [alice, bob],
                                       hold: ["Plan | changed after the deletion"])
                #expect(try alice.sync.conflicts().count == 1)
            }
        }

        @Test("restoring from the Trash works on every server: no wedged queue, no duplicate on the server or another client",
              arguments: ServerKind.allCases)
        func restoreFromTrash(kind: ServerKind) async throws {
            try await kind.with { server in
                let alice = try store(server)
                let bob = try store(server)
                try alice.write(["Plan", "Other"], body: "keep me")
                try await syncTwice(alice)
                try await bob.sync.syncNow()
                try await server.remove(try await id(of: "Plan", on: server))
                let deleted = try await alice.sync.syncNow()
                #expect(deleted.trashed == 1)
                let trashed = try #require(try alice.sync.trashedObjects().first)
                try #require(try alice.sync.restore(trashed.id) != nil)
                for _ in 0..<3 {
                    let report = try await alice.sync.syncNow()
                    #expect(report.failure == nil, "\(report)")
                }
                try alice.write(["Typed after"], body: "pushed")
                try await Convergence.settle(alice)
                try await Convergence.settle(bob)
                try Convergence.expect(server: try await server.notes(), stores: [alice, bob],
                                       hold: ["Other | keep me", "Plan | keep me", "Typed after | pushed"])
                #expect(try alice.sync.trashedObjects().isEmpty)
            }
        }

        @Test("a list whose items lack members (a summary) never blanks a note: a changed item is read whole",
              arguments: ServerKind.allCases)
        func summaryList(kind: ServerKind) async throws {
            try await kind.with { server in
                let proxy = try await FaultProxy.start(backend: server.baseURL)
                defer { Task { await proxy.stop() } }
                let local = try SyncedStore(serverURL: proxy.baseURL, settings: Self.settings)
                try local.write(["Plan", "Ideas"], body: "long text")
                try await syncTwice(local)
                try await server.edit(try await id(of: "Plan", on: server), ["title": "Plan B", "body": "new text"])
                let summary: @Sendable (JSONValue) -> JSONValue = { list in
                    .array((list.arrayValue ?? []).map { item in
                        var object = item.objectValue ?? [:]
                        object["body"] = nil
                        return .object(object)
                    })
                }
                proxy.inject(.rewriteAnswer(summary), on: "GET")
                let report = try await local.sync.syncNow()
                #expect(report.failure == nil, "\(report)")
                #expect(report.updated == 1)
                try Convergence.expect(server: try await server.notes(), stores: [local],
                                       hold: ["Ideas | long text", "Plan B | new text"])
            }
        }
    
        @Test("notes taken out by the user's word and pulled back as new, then restored from the Trash: no wedged queue, no duplicate",
              arguments: ServerKind.allCases)
        func restoreAfterAcceptingASuspectList(kind: ServerKind) async throws {
            try await kind.with { server in
                let proxy = try await FaultProxy.start(backend: server.baseURL)
                defer { Task { await proxy.stop() } }
                let local = try SyncedStore(serverURL: proxy.baseURL, settings: Self.settings)
                let titles = ["one", "two", "three", "four"]
                try local.write(titles)
                try await syncTwice(local)
                proxy.inject(.rewriteAnswer { _ in [] }, on: "GET")
                let suspect = try await local.sync.syncNow()
                #expect(suspect.suspectList == SuspectList(missing: 4, known: 4))
                #expect(try local.sync.acceptMissing() == 4)
                let back = try await local.sync.syncNow()
                #expect(back.inserted == 4, "the server still has them: they come back as notes")
                for trashed in try local.sync.trashedObjects() { try local.sync.restore(trashed.id) }
                for _ in 0..<2 {
                    let report = try await local.sync.syncNow()
                    #expect(report.failure == nil && report.storeFailure == nil, "\(report)")
                }
                try local.write(["five"])
                try await Convergence.settle(local)
                try Convergence.expect(server: try await server.notes(), stores: [local],
                                       hold: (titles + ["five"]).map { "\($0) | " })
                #expect(try local.sync.trashedObjects().isEmpty)
            }
        }

        @Test("a POST answered too late on a server that drops clientId: the second note is found by its content and deleted")
        func lookupRaceWithoutClientID() async throws {
            try await DRFServer.with(options: [.withoutClientID]) { server in
                let proxy = try await FaultProxy.start(backend: server.baseURL)
                defer { Task { await proxy.stop() } }
                let local = try SyncedStore(serverURL: proxy.baseURL, settings: SyncFixtures.settings(timeout: 5, retries: 0))
                try local.write(["Warm-up"])
                try await syncTwice(local)
                #expect(local.sync.capabilities.keepsClientID == false)
                try local.write(["Shopping"], body: "milk")
                let gate = FaultProxy.Gate()
                proxy.inject(.holdUntil(gate), on: "POST")
                let held = try await local.sync.syncNow()
                guard case .timedOut? = held.failure else { Issue.record("\(held)"); return }
                let again = try await local.sync.syncNow()
                #expect(again.pushed == 1, "the lookup found nothing: sent again")
                gate.open()
                let deadline = ContinuousClock.now + .seconds(60)
                while try await server.notes().count < 3, ContinuousClock.now < deadline { try await Task.sleep(for: .milliseconds(50)) }
                let report = try await local.sync.syncNow()
                #expect(report.duplicates == 1, "\(report)")
                #expect(report.inserted == 0)
                try await Convergence.settle(local)
                try Convergence.expect(server: try await server.notes(), stores: [local], hold: ["Shopping | milk", "Warm-up | "])
            }
        }

        @Test("DRF's default router (trailing slashes) and ConditionalGetMiddleware: a full round trip, then passes answered 304")
        func trailingSlashAndETags() async throws {
            try await DRFServer.with(options: [.trailingSlash, .etag]) { server in
                let proxy = try await ChaosProxy.start(backendPort: server.port)
                defer { proxy.stop() }
                let alice = try SyncedStore(serverURL: proxy.baseURL, settings: Self.settings)
                let bob = try SyncedStore(serverURL: server.baseURL, settings: Self.settings)
                try alice.write(["Plan"], body: "v1")
                try await syncTwice(alice)
                try await bob.sync.syncNow()
                try bob.edit("Plan", body: "bob's")
                try await bob.sync.syncNow()
                try await syncTwice(alice)
                let before = try await proxy.requests().count
                let quiet = try await alice.sync.syncNow()
                #expect((quiet.pushed, quiet.updated, quiet.inserted) == (0, 0, 0))
                let requests = try await proxy.requests()
                #expect(Array(requests.dropFirst(before)) == ["GET /notes/ -"], "one conditional GET")
                #expect(alice.sync.capabilities.listETags == true)
                #expect(requests.filter { $0.hasPrefix("POST /notes ") || $0.hasPrefix("GET /notes ") }.count <= 2,
                        "the trailing slash is learned once per client: \(requests)")
                try Convergence.expect(server: try await server.notes(), stores: [alice, bob], hold: ["Plan | bob's"])
            }
        }
    }
}
