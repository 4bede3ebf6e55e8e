import Foundation
import TrellisCore
import TrellisStore
import TrellisTesting

/// A demo-model store in a temporary directory, with an event recorder.
struct StoreFixture {
    let url: URL
    let store: PersistentStore
    let bus = EventBus()
    let events: EventRecorder

    init(url: URL? = nil) throws {
        self.url = try url ?? Fixtures.storeURL()
        events = EventRecorder(bus: bus, pattern: "store:*")
        store = try PersistentStore(url: self.url, model: try Fixtures.demoModel(), bus: bus)
    }

    /// Inserts a valid note.
    @discardableResult
    static func insertNote(_ context: ManagedObjectContext, title: String, created: Date = Date()) throws -> ManagedObject {
        try context.insert("Note", values: ["title": .string(title), "created": .date(created), "updated": .date(created)])
    }

    /// Inserts a valid person.
    @discardableResult
    static func insertPerson(_ context: ManagedObjectContext, _ first: String, _ last: String, age: Int? = nil) throws
        -> ManagedObject
    {
        try context.insert("Person", values: ["firstName": .string(first), "lastName": .string(last),
                                              "age": age.map { .integer($0) } ?? .null])
    }
}
