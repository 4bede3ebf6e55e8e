import Foundation
import Testing
import TrellisCore
@testable import TrellisSync
import TrellisTesting

@Suite("RemoteModel: a resource on the server")
@MainActor
struct RemoteModelTests {
    @Test("save POSTs a new model and takes its id and version; the URL is the collection's plus the id")
    func createAndRead() async throws {
        try await SyncFixtures.withServer { server in
            let sync = BasicSync(settings: SyncFixtures.settings())
            let note = RemoteModel(collectionURL: server.notesURL, attributes: ["title": "Фэнтези"], sync: sync)
            #expect(note.isNew)
            #expect(note.url == server.notesURL)
            try await note.save()
            #expect(note.id == "1")
            #expect(note.version == "1")
            #expect(note.url == server.notesURL.appendingPathComponent("1"))
            #expect(note.changedAttributes.isEmpty)
            #expect(server.received.map(\.method) == ["POST"])

            server.edit("1", ["title": "Киберпанк", "body": "new"])
            let copy = RemoteModel(collectionURL: server.notesURL, id: "1", sync: sync)
            try await copy.fetch()
            #expect(copy.attributes == ["title": "Киберпанк", "body": "new"])
            #expect(copy.version == "2")
        }
    }

    @Test("save PUTs every attribute conditionally; save(.patch) sends only the changed ones")
    func updateAndPatch() async throws {
        try await SyncFixtures.withServer { server in
            let stored = server.seed(["title": "a", "body": "b"])
            let note = RemoteModel(collectionURL: server.notesURL, id: stored.id, attributes: stored.attributes,
                                   version: "1", sync: BasicSync(settings: SyncFixtures.settings()))
            note.set("title", "A")
            try await note.save()
            #expect(server.received.last == NotesServer.Received(method: "PUT", path: "/notes/1", authorization: nil,
                                                                 ifMatch: "1", body: ["title": "A", "body": "b"]))
            note.set("body", "B")
            #expect(note.changedAttributes == ["body": "B"])
            try await note.save(.patch)
            #expect(server.received.last?.method == "PATCH")
            #expect(server.received.last?.body == ["body": "B"])
            #expect(server.received.last?.ifMatch == "2")
            #expect(server.note("1")?.attributes == ["title": "A", "body": "B"])
            #expect(note.version == "3")
        }
    }

    @Test("destroy DELETEs the resource and triggers model:destroy")
    func destroy() async throws {
        try await SyncFixtures.withServer { server in
            let bus = EventBus()
            let events = EventRecorder(bus: bus, pattern: "model:*")
            server.seed(["title": "gone soon"])
            let note = RemoteModel(collectionURL: server.notesURL, id: "1", version: "1",
                                   sync: BasicSync(settings: SyncFixtures.settings()), bus: bus)
            try await note.destroy()
            #expect(server.notes.isEmpty)
            #expect(events.messages == [ModelEvents.request, ModelEvents.destroy, ModelEvents.sync])
            #expect(events.all[1].data["id"] == "1")
        }
    }

    @Test("a save based on an old version is refused with 412 and keeps the attributes")
    func staleVersion() async throws {
        try await SyncFixtures.withServer { server in
            server.seed(["title": "server"])
            server.edit("1", ["title": "changed elsewhere"])
            let note = RemoteModel(collectionURL: server.notesURL, id: "1", attributes: ["title": "mine"], version: "1",
                                   sync: BasicSync(settings: SyncFixtures.settings()))
            let error = await #expect(throws: ModelError.self) { try await note.save() }
            #expect(error?.syncError?.status == 412)
            #expect(note["title"] == "mine")
            #expect(server.note("1")?.attributes["title"] == "changed elsewhere")
        }
    }

    @Test("set triggers change:<key> for each changed attribute, then change, from the model")
    func changeEvents() throws {
        let bus = EventBus()
        let events = EventRecorder(bus: bus, pattern: "model:*")
        let url = URL(string: "https://notes.example/notes")!
        let note = RemoteModel(collectionURL: url, id: "7", attributes: ["title": "a"], sync: BasicSync(), bus: bus)
        let other = RemoteModel(collectionURL: url, id: "8", sync: BasicSync(), bus: bus)
        let fromNote = FromRecorder(bus: bus, sender: note)

        try note.set(["title": "b", "body": "c"])
        note.set("title", "b")
        other.set("title", "x")
        #expect(events.messages == ["model:change:body", "model:change:title", "model:change",
                                    "model:change:title", "model:change"])
        #expect(events.all[1].data["value"] == "b")
        #expect(events.all[1].data["url"] == "https://notes.example/notes/7")
        #expect(events.all[1].data["id"] == "7")
        #expect(events.all[2].data["changed"] == ["title": "b", "body": "c"])
        #expect(fromNote.count == 3)
    }

    @Test("validation rejects attributes with model:invalid, and save sends nothing")
    func validation() async throws {
        try await SyncFixtures.withServer { server in
            let bus = EventBus()
            let events = EventRecorder(bus: bus, pattern: "model:*")
            let note = RemoteModel(collectionURL: server.notesURL, sync: BasicSync(settings: SyncFixtures.settings()),
                                   bus: bus)
            note.validate = { $0["title"]?.stringValue?.isEmpty == false ? nil : "a title is required" }
            #expect(throws: ModelError.invalid(url: server.notesURL, reason: "a title is required")) {
                try note.set(["title": ""], validate: true)
            }
            #expect(note["title"] == nil)
            await #expect(throws: ModelError.invalid(url: server.notesURL, reason: "a title is required")) {
                try await note.save()
            }
            #expect(server.received.isEmpty)
            #expect(events.messages == [ModelEvents.invalid, ModelEvents.invalid])
            #expect(note.validationError == "a title is required")
        }
    }

    @Test("a failed request triggers model:error with method and status after model:request, and no model:sync")
    func errorEvent() async throws {
        try await SyncFixtures.withServer { server in
            let bus = EventBus()
            let events = EventRecorder(bus: bus, pattern: "model:*")
            server.failNext(1)
            let note = RemoteModel(collectionURL: server.notesURL, attributes: ["title": "x"],
                                   sync: BasicSync(settings: SyncFixtures.settings()), bus: bus)
            let error = await #expect(throws: ModelError.self) { try await note.save() }
            #expect(error?.syncError?.status == 500)
            #expect(events.messages == [ModelEvents.request, ModelEvents.error])
            #expect(events.all[1].data["method"] == "POST")
            #expect(events.all[1].data["status"] == 500)
            #expect(note.isNew)
        }
    }

    @Test("an id with a slash stays one path segment of the URL")
    func escapedID() {
        let note = RemoteModel(collectionURL: URL(string: "https://notes.example/notes/")!, id: "a/b c",
                               sync: BasicSync())
        #expect(note.url.absoluteString == "https://notes.example/notes/a%2Fb%20c")
    }

    @Test("resources read ids and versions given as strings or integers, and refuse others")
    func resourceParsing() {
        #expect(RemoteResource(json: ["id": 7, "version": 3, "title": "x"])
            == RemoteResource(id: "7", version: "3", attributes: ["title": "x"]))
        #expect(RemoteResource(json: ["id": "7"], etagVersion: "9")?.version == "9")
        #expect(RemoteResource(json: ["id": 7.5]) == nil)
        #expect(RemoteResource(json: ["id": ["nested"]]) == nil)
        #expect(RemoteResource(json: [1, 2]) == nil)
    }
}

/// Counts the events triggered from one sender, through the bus's sender filter.
private final class FromRecorder: Sendable {
    private let counter = LockedState(0)

    init(bus: EventBus, sender: AnyObject) {
        bus.watch("*", from: sender, owner: self) { recorder, _ in recorder.counter.withLock { $0 += 1 } }
    }

    var count: Int { counter.withLock { $0 } }
}
