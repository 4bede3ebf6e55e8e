import Foundation
import TrellisCore
import TrellisStore
import TrellisSync

/// A notes store synced with a test server: what the demo's notes page has.
@MainActor
struct SyncedStore {
    let url: URL
    let bus = EventBus()
    let store: PersistentStore
    /// The app's context, where the "user" edits.
    let context: ManagedObjectContext
    let sync: EntitySync

    /// Opens (or creates) the store at `url` and syncs it with `server`.
    init(server: NotesServer, url: URL? = nil, settings: SyncSettings = SyncFixtures.settings(retries: 0))
        throws
    {
        try self.init(serverURL: server.baseURL, url: url, settings: settings)
    }

    /// Opens (or creates) the store at `url` and syncs it with the server at `serverURL`
    /// (through `transport`, else a `BasicSync` with `settings`).
    init(serverURL: URL, url: URL? = nil, settings: SyncSettings = SyncFixtures.settings(retries: 0),
         transport: (any Sync)? = nil) throws
    {
        self.url = try url ?? SyncFixtures.storeURL()
        store = try PersistentStore(url: self.url, model: try SyncFixtures.demoModel(), bus: bus)
        context = store.newContext()
        sync = try EntitySync(store: store, bus: bus, server: serverURL, settings: settings, sync: transport)
    }

    /// Inserts and saves (through the sync) one note per title, with `body` as its text.
    func write(_ titles: [String], body: String = "") throws {
        for title in titles { try insertNote(title, body: body) }
        try sync.save(context)
    }

    /// Sets the text of the saved note titled `title`, saved through the sync.
    func edit(_ title: String, body: String) throws {
        guard let note = try editableNote(titled: title) else { throw NoSuchNote(title: title) }
        note["body"] = .string(body)
        try sync.save(context)
    }

    /// The saved notes as `title | body` lines, sorted.
    func lines() throws -> [String] {
        try notes().map { "\($0["title"].stringValue ?? "") | \($0["body"].stringValue ?? "")" }.sorted()
    }

    struct NoSuchNote: Error {
        let title: String
    }

    /// Inserts a note in the app's context (not saved).
    @discardableResult
    func insertNote(_ title: String, body: String = "") throws -> ManagedObject {
        let now = Date()
        return try context.insert("Note", values: ["title": .string(title), "body": .string(body), "created": .date(now),
                                                   "updated": .date(now)])
    }

    /// The saved notes, by title.
    func notes() throws -> [ManagedObject] {
        try store.newContext().fetch(FetchRequest(entityName: "Note", sortKeys: [.ascending("title")]))
    }

    /// The saved notes' titles, sorted.
    func titles() throws -> [String] {
        try notes().map { $0["title"].stringValue ?? "" }
    }

    /// The saved note titled `title`, read afresh from the store.
    func note(titled title: String) throws -> ManagedObject? {
        try store.newContext().fetch(FetchRequest(entityName: "Note", predicate: .equal("title", .string(title)))).first
    }

    /// The app context's instance of the saved note titled `title`, to edit.
    func editableNote(titled title: String) throws -> ManagedObject? {
        try note(titled: title).flatMap { try context.object(with: $0.objectID) }
    }
}
