import Foundation
import Testing
import TrellisCore
import TrellisStore
@testable import TrellisSync
import TrellisTesting

/// The rule: the server wins unless the local edit was based on the server's current
/// version; a rejected edit is kept as a conflict copy, never dropped.
@Suite("EntitySync: the conflict rule")
@MainActor
struct ConflictTests {
    /// A store with one note, "Plan", pulled from the server at version 1.
    private func pulledNote(_ server: NotesServer, url: URL? = nil) async throws -> (SyncedStore, ManagedObject) {
        let stamp: JSONValue = "2026-01-02T03:04:05.000Z"
        server.seed(["title": "Plan", "body": "server v1", "created": stamp, "updated": stamp])
        let local = try SyncedStore(server: server, url: url)
        try await local.sync.syncNow()
        return (local, try #require(try local.editableNote(titled: "Plan")))
    }

    @Test("a local edit based on the current server version wins")
    func currentVersionWins() async throws {
        try await SyncFixtures.withServer { server in
            let (local, note) = try await pulledNote(server)
            note["body"] = "local edit"
            try local.sync.save(local.context)
            let report = try await local.sync.syncNow()
            #expect(report.conflicts.isEmpty)
            #expect(server.note("1")?.attributes["body"] == "local edit")
            #expect(server.note("1")?.version == 2)
            #expect(try local.titles() == ["Plan"])
        }
    }

    @Test("a local edit based on an older version loses to the server and is kept as a conflict copy")
    func staleEditBecomesCopy() async throws {
        try await SyncFixtures.withServer { server in
            let (local, note) = try await pulledNote(server)
            let conflicts = EventRecorder(bus: local.bus, pattern: EntitySync.Events.conflict)
            server.edit("1", ["body": "edited on another device"])
            note["body"] = "typed here, first"
            try local.sync.save(local.context)
            note["body"] = "typed here, second"
            try local.sync.save(local.context)

            let report = try await local.sync.syncNow()
            #expect(report.failure == nil)
            #expect(report.conflicts.count == 1)
            #expect(report.conflicts.first?.original == note.objectID)
            #expect(conflicts.all.count == 1)

            // The server's version won the original…
            #expect(try local.note(titled: "Plan")?["body"] == "edited on another device")
            #expect(server.note("1")?.attributes["body"] == "edited on another device")
            // …and the local edit lives on as a copy, locally and on the server.
            let copy = try #require(try local.note(titled: "Plan (conflict copy)"))
            #expect(copy["body"] == "typed here, second")
            #expect(report.conflicts.first?.copy == copy.objectID)
            #expect(server.notes.map { $0.attributes["title"] } == ["Plan", "Plan (conflict copy)"])
            #expect(server.notes.last?.attributes["body"] == "typed here, second")
            #expect(report.pending == 0)
            // Read before writing, the server's state was not the base: nothing was written over it.
            #expect(server.received.filter { $0.path == "/notes/1" }.map(\.method) == ["GET"])
        }
    }

    @Test("a queued deletion of a note changed on the server is undone: the note comes back")
    func deletionLosesToServerEdit() async throws {
        try await SyncFixtures.withServer { server in
            let (local, note) = try await pulledNote(server)
            server.edit("1", ["body": "still needed"])
            try local.context.delete(note)
            try local.sync.save(local.context)
            #expect(try local.titles().isEmpty)

            let report = try await local.sync.syncNow()
            #expect(report.conflicts.count == 1)
            #expect(report.conflicts.first?.copy == nil)
            #expect(try local.titles() == ["Plan"])
            #expect(try local.note(titled: "Plan")?["body"] == "still needed")
            #expect(server.notes.count == 1)

            // The restored note is linked to the server's: a later edit updates it.
            let restored = try #require(try local.editableNote(titled: "Plan"))
            restored["body"] = "edited after restore"
            try local.sync.save(local.context)
            try await local.sync.syncNow()
            #expect(server.notes.map { $0.attributes["body"] } == ["edited after restore"])
        }
    }

    @Test("an edit to a note deleted on the server is created again")
    func editOfDeletedNoteIsRecreated() async throws {
        try await SyncFixtures.withServer { server in
            let (local, note) = try await pulledNote(server)
            server.remove("1")
            note["body"] = "I still want this"
            try local.sync.save(local.context)
            let report = try await local.sync.syncNow()
            #expect(report.failure == nil)
            #expect(server.notes.map { $0.attributes["body"] } == ["I still want this"])
            #expect(server.notes.first?.id == "2")
            #expect(try local.titles() == ["Plan"])
        }
    }

    @Test("an edit saved while no sync ran, met by a server edit: the pull keeps it as a copy, sent in the same pass")
    func unqueuedEditMeetsServerEdit() async throws {
        try await SyncFixtures.withServer { server in
            let url = try SyncFixtures.storeURL()
            do {
                let (local, _) = try await pulledNote(server, url: url)
                try local.store.close()
            }
            do {
                let plain = try PersistentStore(url: url, model: try SyncFixtures.demoModel())
                let context = plain.newContext()
                let note = try #require(try context.fetch(FetchRequest(entityName: "Note")).first)
                note["body"] = "edited with no sync running"
                try context.save()
                try plain.close()
            }
            server.edit("1", ["body": "edited on the server"])
            let local = try SyncedStore(server: server, url: url)
            let report = try await local.sync.syncNow()
            #expect(report.conflicts.count == 1)
            #expect(report.pending == 0)
            try Convergence.expect(server: server.notes.map { RemoteResource(id: $0.id, version: nil, attributes: $0.attributes) },
                                   stores: [local],
                                   hold: ["Plan (conflict copy) | edited with no sync running", "Plan | edited on the server"])
        }
    }

    @Test("a pull leaves a note with queued edits alone; its push decides")
    func pullRespectsQueuedEdits() async throws {
        try await SyncFixtures.withServer { server in
            let (local, note) = try await pulledNote(server)
            note["body"] = "queued"
            try local.sync.save(local.context)
            server.edit("1", ["body": "remote"])
            server.failNext(1, status: 503)
            let stopped = try await local.sync.syncNow()
            #expect(stopped.failure?.status == 503)
            #expect(try local.note(titled: "Plan")?["body"] == "queued")
        }
    }
}
