import Foundation
import Testing
import TrellisCore
import TrellisStore
@testable import TrellisSync
import TrellisTesting

@Suite("EntitySync: changes saved without the sync are queued too")
@MainActor
struct CaptureTests {
    @Test("a note saved with a plain context.save() is queued, and pushed by the next pass")
    func plainSave() async throws {
        try await SyncFixtures.withServer { server in
            let local = try SyncedStore(server: server)
            let note = try local.insertNote("plain save")
            try local.context.save()
            #expect(try await eventually { try local.sync.pendingCount() == 1 })
            note["body"] = "edited"
            try local.context.save()
            #expect(try await eventually { try local.sync.pendingCount() == 2 })
            try local.context.delete(note)
            try local.context.save()
            #expect(try await eventually { try local.sync.pendingCount() == 3 })
            let report = try await local.sync.syncNow()
            #expect(report.pushed == 3)
            #expect(server.received.filter { $0.method != "GET" }.map(\.method) == ["PUT", "POST", "PUT", "DELETE"])
            #expect(server.notes.isEmpty)
        }
    }

    @Test("a note saved from a background context is queued once")
    func backgroundSave() async throws {
        try await SyncFixtures.withServer { server in
            let local = try SyncedStore(server: server)
            let importer = local.store.newBackgroundContext()
            try await importer.perform { context in
                let now = Date()
                try context.insert("Note", values: ["title": "imported", "created": .date(now), "updated": .date(now)])
                try context.save()
            }
            #expect(try await eventually { try local.sync.pendingCount() == 1 })
            try await local.sync.syncNow()
            #expect(server.notes.map { $0.attributes["title"] } == ["imported"])
            #expect(try local.sync.pendingCount() == 0)
        }
    }

    @Test("notes written before a server was configured are created on the first pass")
    func adoptsEarlierNotes() async throws {
        try await SyncFixtures.withServer { server in
            let url = try SyncFixtures.storeURL()
            do {
                let offline = try PersistentStore(url: url, model: try SyncFixtures.demoModel())
                let context = offline.newContext()
                for title in ["one", "two"] {
                    try context.insert("Note", values: ["title": .string(title), "created": .date(Date()),
                                                        "updated": .date(Date())])
                }
                try context.save()
                try offline.close()
            }
            let local = try SyncedStore(server: server, url: url)
            let report = try await local.sync.syncNow()
            #expect(report.pushed == 2)
            #expect(Set(server.notes.compactMap { $0.attributes["title"]?.stringValue }) == ["one", "two"])
            let again = try await local.sync.syncNow()
            #expect(again.pushed == 0)
            #expect(server.notes.count == 2)
        }
    }

    @Test("a deleted note put back with its id (an undone delete) before the deletion was pushed ends on the server",
          arguments: [true, false])
    func undoneDelete(pushedFirst: Bool) async throws {
        try await SyncFixtures.withServer { server in
            let local = try SyncedStore(server: server)
            let note = try local.insertNote("undone", body: "kept")
            try local.context.save()
            if pushedFirst { try await local.sync.syncNow() }
            let id = note.objectID.uuid
            try local.context.delete(note)
            try local.context.save()
            let again = try local.context.insert("Note", id: id)
            for (key, value) in ["title": "undone", "body": "kept"] as [String: AttributeValue] { again[key] = value }
            again["created"] = .date(Date())
            again["updated"] = .date(Date())
            try local.context.save()
            let queued = pushedFirst ? 2 : 3  // the deletion and the creation again (after a creation never pushed)
            #expect(try await eventually { try local.sync.pendingCount() == queued })
            try await local.sync.syncNow()
            #expect(try local.sync.pendingCount() == 0)
            #expect(server.notes.map { $0.attributes["title"] } == ["undone"])
            #expect(try local.notes().map(\.objectID.uuid) == [id], "the note keeps its id")
        }
    }
}
