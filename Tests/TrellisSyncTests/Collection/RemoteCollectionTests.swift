import Foundation
import Testing
import TrellisCore
@testable import TrellisSync
import TrellisTesting

@Suite("RemoteCollection: smart merge, events and table changes")
@MainActor
struct RemoteCollectionTests {
    @Test("fetch merges by id and lists what was added, removed and changed")
    func smartMerge() async throws {
        try await SyncFixtures.withServer { server in
            for title in ["a", "b", "c"] { server.seed(["title": .string(title)]) }
            let notes = RemoteCollection(url: server.notesURL, sync: BasicSync(settings: SyncFixtures.settings()))
            let first = try await notes.fetch()
            #expect(first.added.map(\.id) == ["1", "2", "3"])
            let kept = try #require(notes.model(id: "1"))

            server.edit("1", ["title": "A"])
            server.remove("2")
            server.seed(["title": "d"])
            let second = try await notes.fetch()
            #expect(second.added.map(\.id) == ["4"])
            #expect(second.removed.map(\.id) == ["2"])
            #expect(second.changed.map(\.id) == ["1"])
            #expect(notes.models.map(\.id) == ["1", "3", "4"])
            #expect(notes.model(id: "1") === kept)
            #expect(kept["title"] == "A")
            #expect(kept.version == "2")

            let third = try await notes.fetch()
            #expect(third.isEmpty)
        }
    }

    @Test("the collection's events: request, add, remove, update and sync")
    func events() async throws {
        try await SyncFixtures.withServer { server in
            let bus = EventBus()
            let events = EventRecorder(bus: bus, pattern: "collection:*")
            server.seed(["title": "a"])
            let notes = RemoteCollection(url: server.notesURL, sync: BasicSync(settings: SyncFixtures.settings()), bus: bus)
            try await notes.fetch()
            #expect(events.messages == [CollectionEvents.request, CollectionEvents.add, CollectionEvents.update,
                                        CollectionEvents.sync])
            #expect(events.all[1].data["index"] == 0)
            #expect(events.all[1].data["id"] == "1")
            #expect(events.all[2].data["added"] == ["1"])
            #expect(events.all.allSatisfy { $0.data["url"] == .string(server.notesURL.absoluteString) })

            events.clear()
            server.remove("1")
            try await notes.fetch()
            #expect(events.messages == [CollectionEvents.request, CollectionEvents.remove, CollectionEvents.update,
                                        CollectionEvents.sync])
            #expect(events.all[2].data["removed"] == ["1"])
        }
    }

    @Test("the table changes, applied one by one to a copy, rebuild the collection after every merge")
    func tableChangesReplay() async throws {
        try await SyncFixtures.withServer { server in
            for title in ["d", "b", "e", "a"] { server.seed(["title": .string(title)]) }
            let notes = RemoteCollection(url: server.notesURL, sync: BasicSync(settings: SyncFixtures.settings()))
            notes.comparator = { ($0["title"]?.stringValue ?? "") < ($1["title"]?.stringValue ?? "") }
            var mirror: [String] = []
            var updated: [String] = []
            let token = notes.changes.observe { change in
                switch change {
                case .insert(let path): mirror.insert(notes.models[path.row].cid, at: path.row)
                case .delete(let path, let id):
                    #expect(mirror[path.row] == id.description)
                    mirror.remove(at: path.row)
                case .move(let from, let to): mirror.insert(mirror.remove(at: from.row), at: to.row)
                case .update(let path): updated.append(notes.models[path.row].cid)
                case .reload: mirror = notes.models.map(\.cid)
                default: Issue.record("unexpected change \(change)")
                }
                #expect(mirror.count == notes.count || change == .reload)
            }
            try await notes.fetch()
            #expect(mirror == notes.models.map(\.cid))
            #expect(notes.models.map { $0["title"] } == ["a", "b", "d", "e"])

            server.edit("4", ["title": "z"])      // a → z: moves to the end
            server.remove("2")                    // b goes
            server.seed(["title": "c"])           // c comes
            let changes = try await notes.fetch()
            #expect(changes.reordered)
            #expect(mirror == notes.models.map(\.cid))
            #expect(notes.models.map { $0["title"] } == ["c", "d", "e", "z"])
            #expect(updated == [try #require(notes.model(id: "4")).cid])
            token.cancel()
        }
    }

    @Test("a table container shows the collection live, one row per model")
    func tableContainer() async throws {
        try await SyncFixtures.withServer { server in
            server.seed(["title": "Фэнтези"])
            let notes = RemoteCollection(url: server.notesURL, sync: BasicSync(settings: SyncFixtures.settings()))
            let table = TableContainer(source: notes, cells: KeyValueCellProvider(keys: ["id", "title"]))
            #expect(table.flatCount == 0)
            try await notes.fetch()
            #expect(table.flatRow(at: 0) == .item(indexPath: TableIndexPath(row: 0), cell: Cell(columns: ["1", "Фэнтези"])))
            try #require(notes.model(id: "1")).set("title", "Киберпанк")
            #expect(table.flatRow(at: 0) == .item(indexPath: TableIndexPath(row: 0), cell: Cell(columns: ["1", "Киберпанк"])))
            let created = try await notes.create(["title": "Мистика"])
            #expect(table.flatCount == 2)
            #expect(table.item(atFlatIndex: 1)?.id == TableItemID(created.cid))
            #expect(notes.indexPath(of: TableItemID(created.cid)) == TableIndexPath(row: 1))
        }
    }

    @Test("create POSTs, then adds the model with the server's id; a failed create adds nothing")
    func create() async throws {
        try await SyncFixtures.withServer { server in
            let bus = EventBus()
            let events = EventRecorder(bus: bus, pattern: "collection:*")
            let notes = RemoteCollection(url: server.notesURL, sync: BasicSync(settings: SyncFixtures.settings()), bus: bus)
            let note = try await notes.create(["title": "new"])
            #expect(note.id == "1")
            #expect(note.collection === notes)
            #expect(notes.models.map(\.id) == ["1"])
            #expect(events.messages == [CollectionEvents.add])
            #expect(server.note("1")?.attributes == ["title": "new"])

            server.failNext(1)
            await #expect(throws: ModelError.self) { try await notes.create(["title": "refused"]) }
            #expect(notes.count == 1)

            notes.validate = { _ in "never valid" }
            await #expect(throws: ModelError.invalid(url: server.notesURL, reason: "never valid")) {
                try await notes.create(["title": "invalid"])
            }
            #expect(server.notes.count == 1)
        }
    }

    @Test("destroying a model removes it from its collection")
    func destroyRemoves() async throws {
        try await SyncFixtures.withServer { server in
            server.seed(["title": "a"])
            let notes = RemoteCollection(url: server.notesURL, sync: BasicSync(settings: SyncFixtures.settings()))
            try await notes.fetch()
            var deletions: [TableChange] = []
            let token = notes.changes.observe { deletions.append($0) }
            let note = try #require(notes.model(id: "1"))
            try await note.destroy()
            #expect(notes.count == 0)
            #expect(note.collection == nil)
            #expect(deletions == [.delete(TableIndexPath(row: 0), id: TableItemID(note.cid))])
            token.cancel()
        }
    }

    @Test("reset replaces every model and announces a reload; sorting announces collection:sort")
    func resetAndSort() {
        let bus = EventBus()
        let events = EventRecorder(bus: bus, pattern: "collection:*")
        let notes = RemoteCollection(url: URL(string: "https://notes.example/notes")!, sync: BasicSync(), bus: bus)
        var announced: [TableChange] = []
        let token = notes.changes.observe { announced.append($0) }
        notes.reset([RemoteResource(id: "2", version: "1", attributes: ["title": "b"]),
                     RemoteResource(id: "1", version: "1", attributes: ["title": "a"])])
        #expect(notes.models.map(\.id) == ["2", "1"])
        notes.comparator = { ($0["title"]?.stringValue ?? "") < ($1["title"]?.stringValue ?? "") }
        #expect(notes.models.map(\.id) == ["1", "2"])
        #expect(announced == [.reload, .reload])
        #expect(events.messages == [CollectionEvents.reset, CollectionEvents.sort])
        #expect(events.all[0].data["count"] == 2)
        token.cancel()
    }

    @Test("a fetch answer that is not an array of resources is an error, and collection:error")
    func unexpectedBody() async throws {
        try await SyncFixtures.withServer { server in
            let bus = EventBus()
            let events = EventRecorder(bus: bus, pattern: "collection:error")
            let notes = RemoteCollection(url: server.notesURL.appendingPathComponent("1"),
                                         sync: BasicSync(settings: SyncFixtures.settings()), bus: bus)
            server.seed(["title": "a"])
            let error = await #expect(throws: ModelError.self) { try await notes.fetch() }
            guard case .sync(.unexpectedBody(.get, _, let expected, _))? = error else {
                Issue.record("expected an unexpected body, got \(String(describing: error))")
                return
            }
            #expect(expected == "an array of resources")
            #expect(events.count(CollectionEvents.error) == 1)
        }
    }
}
