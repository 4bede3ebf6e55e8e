import Foundation
import Testing
import TrellisCore
import TrellisStore
@testable import TrellisSync
import TrellisTesting

@Suite("EntitySync: local edits pushed, server changes pulled")
@MainActor
struct EntitySyncTests {
    @Test("insertions, edits and deletions saved through the sync are pushed in order")
    func pushInOrder() async throws {
        try await SyncFixtures.withServer { server in
            let local = try SyncedStore(server: server)
            let shopping = try local.insertNote("Shopping", body: "milk")
            let ideas = try local.insertNote("Ideas")
            try local.sync.save(local.context)
            #expect(try local.sync.pendingCount() == 2)

            let first = try await local.sync.syncNow()
            #expect(first.pushed == 2)
            #expect(first.failure == nil)
            #expect(first.pending == 0)
            #expect(server.notes.map { $0.attributes["title"] } == ["Shopping", "Ideas"])
            #expect(server.notes[0].attributes["body"] == "milk")
            #expect(server.notes[0].attributes["created"] == SyncMapping.wireJSON(shopping["created"]))

            shopping["body"] = "milk, bread"
            try local.context.delete(ideas)
            try local.sync.save(local.context)
            try await local.sync.syncNow()
            #expect(server.notes.map { $0.attributes["body"] } == ["milk, bread"])
            #expect(server.notes[0].version == 2)
            // The first create asks whether a PUT creates (this server answers 404: it does
            // not), then creates are POSTed; the server's versions make the edits conditional.
            let writes = server.received.filter { $0.method != "GET" }
            #expect(writes.map(\.method) == ["PUT", "POST", "POST", "PUT", "DELETE"])
            #expect(writes[0].path == "/notes/\(shopping.objectID.uuid.uuidString.lowercased())")
            #expect(writes[3].ifMatch == "1")
            #expect(writes[4].ifMatch == "1")
            #expect(local.sync.capabilities.upsert == false)
            #expect(local.sync.capabilities.versions == true)
        }
    }

    @Test("changes to attributes that do not travel queue nothing")
    func unsyncedKeys() async throws {
        try await SyncFixtures.withServer { server in
            let local = try SyncedStore(server: server)
            let note = try local.insertNote("Shopping")
            try local.sync.save(local.context)
            try await local.sync.syncNow()
            let author = try local.context.insert("Person", values: ["firstName": "Anna", "lastName": "Ivanova"])
            try note.setRelated("author", to: author)
            try local.sync.save(local.context)
            #expect(try local.sync.pendingCount() == 0)
        }
    }

    @Test("server changes are pulled: new notes inserted, changed ones updated, deleted ones removed")
    func pull() async throws {
        try await SyncFixtures.withServer { server in
            let stamp: JSONValue = "2026-01-02T03:04:05.678Z"
            server.seed(["title": "Фэнтези", "body": "a", "created": stamp, "updated": stamp])
            server.seed(["title": "Мистика", "body": "b", "created": stamp, "updated": stamp])
            let local = try SyncedStore(server: server)
            let first = try await local.sync.syncNow()
            #expect(first.inserted == 2)
            #expect(try local.titles() == ["Мистика", "Фэнтези"])
            #expect(try local.note(titled: "Фэнтези").map { SyncMapping.wireJSON($0["created"]) } == stamp)

            server.edit("1", ["body": "changed"])
            server.remove("2")
            let second = try await local.sync.syncNow()
            #expect((second.inserted, second.updated, second.trashed) == (0, 1, 1))
            #expect(try local.titles() == ["Фэнтези"])
            #expect(try local.note(titled: "Фэнтези")?["body"] == "changed")

            let third = try await local.sync.syncNow()
            #expect((third.inserted, third.updated, third.trashed) == (0, 0, 0))
        }
    }

    @Test("dates travel to the nearest millisecond, and read back to the same text")
    func wireDates() throws {
        for text in ["2026-01-02T03:04:05.678Z", "1969-12-31T23:59:59.001Z", "2026-11-22T05:06:17.000Z"] {
            let date = try #require(AttributeValue(json: .string(text), as: .date))
            #expect(SyncMapping.wireJSON(date) == .string(text))
        }
        #expect(SyncMapping.wireJSON(.date(Date(timeIntervalSince1970: 0.6816))) == "1970-01-01T00:00:00.682Z")
        #expect(SyncMapping.wireJSON("text") == "text")
    }

    @Test("a server resource that does not fit the store is skipped, the rest is pulled")
    func skipsMisfits() async throws {
        try await SyncFixtures.withServer { server in
            let stamp: JSONValue = "2026-01-02T03:04:05Z"
            server.seed(["title": 42, "created": stamp, "updated": stamp])
            server.seed(["title": "fits", "created": stamp, "updated": stamp])
            let local = try SyncedStore(server: server)
            let report = try await local.sync.syncNow()
            #expect(report.skipped == ["1"])
            #expect(report.inserted == 1)
            #expect(try local.titles() == ["fits"])
        }
    }

    @Test("every pass ends with sync:finished carrying the report")
    func finishedEvent() async throws {
        try await SyncFixtures.withServer { server in
            let local = try SyncedStore(server: server)
            let events = EventRecorder(bus: local.bus, pattern: EntitySync.Events.finished)
            try local.insertNote("x")
            try local.sync.save(local.context)
            try await local.sync.syncNow()
            #expect(events.all.map { $0.data["pushed"] } == [1])
            #expect(events.all.first?.data["failure"] == .null)
        }
    }

    @Test("a context that fails to save queues nothing and keeps its changes")
    func failedSave() async throws {
        try await SyncFixtures.withServer { server in
            let local = try SyncedStore(server: server)
            let note = try local.context.insert("Note", values: ["title": "no dates"])
            #expect(throws: SaveValidationError.self) { try local.sync.save(local.context) }
            #expect(try local.sync.pendingCount() == 0)
            #expect(local.context.insertedObjects.map(\.objectID) == [note.objectID])
            note["created"] = .date(Date())
            note["updated"] = .date(Date())
            try local.sync.save(local.context)
            #expect(try local.sync.pendingCount() == 1)
        }
    }

    @Test("start syncs in the background soon after a save")
    func backgroundSync() async throws {
        try await SyncFixtures.withServer { server in
            let local = try SyncedStore(server: server)
            local.sync.start(every: .seconds(60))
            defer { local.sync.stop() }
            try local.insertNote("typed while running")
            try local.sync.save(local.context)
            let arrived = await eventually { server.notes.count == 1 }
            #expect(arrived)
        }
    }

    @Test("setting up refuses plain HTTP to a host that is not loopback, and a model without the sync entities")
    func setupChecks() throws {
        let store = try PersistentStore(url: try SyncFixtures.storeURL(), model: try SyncFixtures.demoModel())
        #expect(throws: EntitySyncError.self) {
            try EntitySync(store: store, bus: nil, server: URL(string: "http://notes.example/api")!)
        }
        _ = try EntitySync(store: store, bus: nil, server: URL(string: "https://notes.example/api")!)
        let bare = try ManagedObjectModel(jsonString: """
            {"version": 1, "entities": [{"name": "Note", "attributes": [{"name": "title", "type": "string"}]}]}
            """, source: "bare.json")
        let bareStore = try PersistentStore(url: try SyncFixtures.storeURL(), model: bare)
        #expect(throws: EntitySyncError.missingEntity(entity: "SyncOutboxEntry", modelSource: "bare.json")) {
            try EntitySync(store: bareStore, bus: nil, server: URL(string: "https://notes.example")!)
        }
    }
}
