import Foundation
import Testing
import TrellisCore
import TrellisStore
@testable import TrellisSync

@Suite("EntitySync: offline first — nothing typed is lost")
@MainActor
struct OfflineReplayTests {
    @Test("edits made while the server is down survive a restart and are replayed in order when it answers")
    func replayAfterRestart() async throws {
        try await SyncFixtures.withServer { server in
            let url = try SyncFixtures.storeURL()
            do {
                let local = try SyncedStore(server: server, url: url)
                let draft = try local.insertNote("Draft", body: "v1")
                try local.sync.save(local.context)
                try await local.sync.syncNow()
                #expect(server.notes.count == 1)

                await server.stop()
                draft["body"] = "v2"
                try local.sync.save(local.context)
                draft["body"] = "v3"
                try local.sync.save(local.context)
                let offline = try local.insertNote("Written offline", body: "новая")
                try local.sync.save(local.context)
                try local.context.delete(offline)
                try local.sync.save(local.context)
                try local.insertNote("Kept", body: "stays")
                try local.sync.save(local.context)

                let report = try await local.sync.syncNow()
                guard case .unreachable? = report.failure else {
                    Issue.record("expected the server to be unreachable, got \(String(describing: report.failure))")
                    return
                }
                #expect(report.pending == 5)
                try local.store.close()
            }

            // A new process: the objects are recreated from the same store file.
            try await server.restart()
            let reopened = try SyncedStore(server: server, url: url)
            #expect(try reopened.sync.pendingCount() == 5)
            #expect(try reopened.titles() == ["Draft", "Kept"])
            let writesBefore = server.received.filter { $0.method != "GET" }.count
            let report = try await reopened.sync.syncNow()
            #expect(report.failure == nil)
            #expect(report.pushed == 5)
            #expect(report.pending == 0)

            let replayed = server.received.filter { $0.method != "GET" }.dropFirst(writesBefore)
            #expect(replayed.map(\.method) == ["PUT", "PUT", "POST", "DELETE", "POST"])
            #expect(replayed.map { $0.body?["body"] } == ["v2", "v3", "новая", nil, "stays"])
            #expect(server.notes.map { $0.attributes["title"] } == ["Draft", "Kept"])
            #expect(server.notes.first?.attributes["body"] == "v3")
            #expect(server.notes.first?.version == 3)
        }
    }

    @Test("a server error keeps the edit queued, with the error noted, until a later pass succeeds")
    func serverErrorKeepsEdit() async throws {
        try await SyncFixtures.withServer { server in
            let local = try SyncedStore(server: server)
            try local.insertNote("Important", body: "do not lose")
            try local.sync.save(local.context)
            server.failNext(1)
            let failed = try await local.sync.syncNow()
            #expect(failed.failure?.status == 500)
            #expect(failed.pushed == 0)
            #expect(failed.pending == 1)
            let entry = try #require(try local.store.newContext().fetch(FetchRequest(entityName: "SyncOutboxEntry")).first)
            #expect(entry["attempts"] == 1)
            #expect(entry["lastError"].stringValue?.contains("HTTP 500") == true)
            #expect(try local.titles() == ["Important"])

            let retried = try await local.sync.syncNow()
            #expect(retried.failure == nil)
            #expect(server.notes.map { $0.attributes["body"] } == ["do not lose"])
        }
    }

    @Test("a timeout keeps the edit queued and stops the pass before the pull")
    func timeoutKeepsEdit() async throws {
        try await SyncFixtures.withServer { server in
            let local = try SyncedStore(server: server, settings: SyncFixtures.settings(timeout: 0.2, retries: 0))
            try local.insertNote("Slow", body: "server")
            try local.sync.save(local.context)
            server.delay = .seconds(60)
            let report = try await local.sync.syncNow()
            guard case .timedOut? = report.failure else {
                Issue.record("expected a timeout, got \(String(describing: report.failure))")
                return
            }
            #expect(report.pending == 1)
            #expect(!server.received.contains { $0.method == "GET" })
        }
    }

    @Test("a refused change (a 4xx answer) stays queued with its error, its note's later changes behind it; other notes go on")
    func refusedEntryIsKept() async throws {
        try await SyncFixtures.withServer { server in
            let local = try SyncedStore(server: server)
            try local.insertNote("zero")
            try local.sync.save(local.context)
            try await local.sync.syncNow()
            let first = try local.insertNote("first")
            try local.sync.save(local.context)
            first["body"] = "edited"
            try local.sync.save(local.context)
            try local.insertNote("second")
            try local.sync.save(local.context)
            server.failNext(1, status: 422)
            let report = try await local.sync.syncNow()
            #expect(report.failure == nil)
            #expect(report.refusals.map(\.status) == [422])
            #expect(report.pending == 2, "the refused create and the edit behind it")
            #expect(server.notes.map { $0.attributes["title"] } == ["zero", "second"])
            let queued = try local.sync.queuedChanges()
            #expect(queued.first?.lastError?.contains("HTTP 422") == true)
            let next = try await local.sync.syncNow()
            #expect(next.pushed == 2)
            #expect(server.notes.map { $0.attributes["title"] } == ["zero", "second", "first"])
            #expect(server.notes.last?.attributes["body"] == "edited")
        }
    }

    @Test("a store made with model version 1 opens with the sync entities and keeps its notes")
    func migratesVersionOneStore() throws {
        var json = try JSONValue(jsonData: try Data(contentsOf: SyncFixtures.repositoryRoot
            .appendingPathComponent("data/model.json")))
        json["version"] = 1
        json["entities"] = .array(json["entities"]?.arrayValue?.filter {
            !["SyncRecord", "SyncOutboxEntry"].contains($0["name"]?.stringValue ?? "")
        } ?? [])
        let url = try SyncFixtures.storeURL()
        do {
            let old = try PersistentStore(url: url, model: try ManagedObjectModel(jsonString: json.jsonString, source: "v1"))
            let context = old.newContext()
            try context.insert("Note", values: ["title": "from v1", "created": .date(Date()), "updated": .date(Date())])
            try context.save()
            try old.close()
        }
        let store = try PersistentStore(url: url, model: try SyncFixtures.demoModel())
        let sync = try EntitySync(store: store, bus: nil, server: URL(string: "https://notes.example")!)
        #expect(try sync.pendingCount() == 0)
        #expect(try store.newContext().fetch(FetchRequest(entityName: "Note")).map { $0["title"] } == ["from v1"])
    }
}
