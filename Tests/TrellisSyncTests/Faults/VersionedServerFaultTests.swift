import Foundation
import Testing
import TrellisCore
import TrellisStore
@testable import TrellisSync
import TrellisTesting

extension AgainstRealServers {
    /// The faults that need a server with versions and `If-Match`, or one that creates only by
    /// POST: the FlyingFox contract server behind the fault-injecting proxy.
    @Suite("Faults against a server with versions and POST-only creates")
    @MainActor
    struct VersionedServerFaultTests {
        private func lines(_ server: NotesServer) -> [RemoteResource] {
            server.notes.map { RemoteResource(id: $0.id, version: String($0.version), attributes: $0.attributes) }
        }

        @Test("two clients edit one note on a server with versions: a conflict copy, both end with both texts")
        func concurrentEditsWithVersions() async throws {
            try await SyncFixtures.withServer { server in
                let settings = JSONServerFaultTests.settings
                let alice = try SyncedStore(server: server, settings: settings)
                let bob = try SyncedStore(server: server, settings: settings)
                try alice.write(["Plan"], body: "v1")
                try await alice.sync.syncNow()
                try await bob.sync.syncNow()
                try alice.edit("Plan", body: "Alice's")
                try bob.edit("Plan", body: "Bob's")
                try await alice.sync.syncNow()
                let conflicted = try await bob.sync.syncNow()
                #expect(conflicted.conflicts.count == 1)
                try await Convergence.settle(alice)
                try Convergence.expect(server: lines(server), stores: [alice, bob],
                                       hold: ["Plan (conflict copy) | Bob's", "Plan | Alice's"])
            }
        }

        @Test("another client's edit between the read and the write: the server's 412 makes the copy")
        func editBetweenReadAndWrite() async throws {
            try await SyncFixtures.withServer { server in
                let proxy = try await FaultProxy.start(backend: server.baseURL)
                defer { Task { await proxy.stop() } }
                let local = try SyncedStore(serverURL: proxy.baseURL, settings: JSONServerFaultTests.settings)
                try local.write(["Plan"], body: "v1")
                try await local.sync.syncNow()
                let id = try #require(server.notes.first?.id)
                try local.edit("Plan", body: "mine")
                proxy.inject(.before { server.edit(id, ["body": "theirs, just in time"]) }, on: "PUT")
                let report = try await local.sync.syncNow()
                #expect(report.conflicts.count == 1)
                #expect(server.received.contains { $0.method == "PUT" && $0.ifMatch == "1" })
                try await Convergence.settle(local)
                try Convergence.expect(server: lines(server), stores: [local],
                                       hold: ["Plan (conflict copy) | mine", "Plan | theirs, just in time"])
            }
        }

        @Test("a POST answered too late is looked up by client id; one still held when the lookup ran is deleted as a duplicate")
        func heldPostBecomesDuplicate() async throws {
            try await SyncFixtures.withServer { server in
                let proxy = try await FaultProxy.start(backend: server.baseURL)
                defer { Task { await proxy.stop() } }
                let local = try SyncedStore(serverURL: proxy.baseURL, settings: JSONServerFaultTests.settings)
                try local.write(["Warm-up"])
                try await local.sync.syncNow()
                #expect(local.sync.capabilities.upsert == false)

                try local.write(["Shopping"], body: "milk")
                let gate = FaultProxy.Gate()
                proxy.inject(.holdUntil(gate), on: "POST")
                let held = try await local.sync.syncNow()
                guard case .timedOut? = held.failure else { throw JSONServerFaultTests.UnexpectedReport(report: held) }
                // The lookup finds nothing (the first POST has not arrived): the note is POSTed again.
                let again = try await local.sync.syncNow()
                #expect(again.resolved == 0)
                #expect(again.pushed == 1)
                gate.open()
                #expect(await eventually { server.notes.count == 3 })

                let report = try await local.sync.syncNow()
                #expect(report.duplicates == 1)
                #expect(report.inserted == 0)
                try Convergence.expect(server: lines(server), stores: [local], hold: ["Shopping | milk", "Warm-up | "])
            }
        }

        @Test("a POST whose answer is lost is found by its client id in the list, not made twice")
        func lostPostAnswer() async throws {
            try await SyncFixtures.withServer { server in
                let proxy = try await FaultProxy.start(backend: server.baseURL)
                defer { Task { await proxy.stop() } }
                let local = try SyncedStore(serverURL: proxy.baseURL, settings: JSONServerFaultTests.settings)
                try local.write(["Warm-up"])
                try await local.sync.syncNow()
                try local.write(["Shopping"], body: "milk")
                proxy.inject(.forwardThenHang, on: "POST")
                let lost = try await local.sync.syncNow()
                guard case .timedOut? = lost.failure else { throw JSONServerFaultTests.UnexpectedReport(report: lost) }
                let report = try await local.sync.syncNow()
                #expect(report.resolved == 1)
                #expect(proxy.requests.filter { $0 == "POST /notes" }.count == 2, "the warm-up and the lost one")
                try Convergence.expect(server: lines(server), stores: [local], hold: ["Shopping | milk", "Warm-up | "])
            }
        }

        @Test("a server that drops the client id member: the lost create is found by its content")
        func lookupByContent() async throws {
            try await SyncFixtures.withServer { server in
                server.dropsMembers = ["clientId"]
                let proxy = try await FaultProxy.start(backend: server.baseURL)
                defer { Task { await proxy.stop() } }
                let local = try SyncedStore(serverURL: proxy.baseURL, settings: JSONServerFaultTests.settings)
                try local.write(["Warm-up"])
                try await local.sync.syncNow()
                #expect(local.sync.capabilities.keepsClientID == false)
                try local.write(["Shopping"], body: "milk")
                proxy.inject(.forwardThenHang, on: "POST")
                _ = try await local.sync.syncNow()
                let report = try await local.sync.syncNow()
                #expect(report.resolved == 1)
                try Convergence.expect(server: lines(server), stores: [local], hold: ["Shopping | milk", "Warm-up | "])
            }
        }
    }
}
