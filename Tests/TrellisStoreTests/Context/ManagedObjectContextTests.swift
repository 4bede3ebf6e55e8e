import Foundation
import Testing
import TrellisCore
@testable import TrellisStore

@Suite("Managed object context: tracking, saving, relationships")
struct ManagedObjectContextTests {
    @Test("insert, update and delete are tracked until save, and saved objects survive reopening the store")
    func trackingAndPersistence() throws {
        let fixture = try StoreFixture()
        let context = fixture.store.newContext()
        #expect(!context.hasChanges)
        let anna = try StoreFixture.insertPerson(context, "Anna", "Ivanova", age: 30)
        let boris = try StoreFixture.insertPerson(context, "Boris", "Petrov")
        #expect(context.hasChanges)
        #expect(context.insertedObjects.map(\.objectID) == [anna.objectID, boris.objectID])
        try context.save()
        #expect(!context.hasChanges && context.insertedObjects.isEmpty)

        anna["age"] = 31
        try context.delete(boris)
        #expect(context.updatedObjects.map(\.objectID) == [anna.objectID])
        #expect(context.deletedObjects.map(\.objectID) == [boris.objectID])
        #expect(anna.changedKeys == ["age"])
        anna["age"] = 30
        #expect(context.updatedObjects.isEmpty, "setting the saved value back leaves nothing to update")
        anna["age"] = 32
        try context.save()
        try fixture.store.close()

        let reopened = try PersistentStore(url: fixture.url, model: try Fixtures.demoModel())
        let people = try reopened.newContext().fetch(FetchRequest(entityName: "Person"))
        #expect(people.map(\.objectID) == [anna.objectID])
        #expect(people.first?["age"] == 32)
        #expect(people.first?["firstName"] == "Anna")
    }

    @Test("a context hands out one instance per object id")
    func identity() throws {
        let fixture = try StoreFixture()
        let context = fixture.store.newContext()
        let note = try StoreFixture.insertNote(context, title: "One")
        try context.save()
        #expect(try context.object(with: note.objectID) === note)
        #expect(try context.fetch(FetchRequest(entityName: "Note")).first === note)
        let other = fixture.store.newContext()
        let copy = try #require(try other.object(with: note.objectID))
        #expect(copy !== note && copy["title"] == "One")
        #expect(try other.object(with: ObjectID(entityName: "Note")) == nil)
    }

    @Test("instances only the context holds are dropped as it grows; held and changed ones stay")
    func registryPurge() throws {
        let fixture = try StoreFixture()
        let context = fixture.store.newContext()
        context.isUndoRegistrationEnabled = false   // the undo history would hold the last inserts
        var kept: ManagedObject?
        for number in 0..<3000 {
            let note = try StoreFixture.insertNote(context, title: "n\(number)")
            if number == 1234 { kept = note }
        }
        try context.save()
        let changed = try #require(try context.fetch(FetchRequest(entityName: "Note", predicate: .equal("title", "n7"))).first)
        changed["body"] = "changed"
        #expect(context.registeredCount == 3000)
        // The table reaches twice its size at the last purge (during the inserts, when
        // every object was pending): the saved instances nobody holds are dropped.
        for number in 0..<1100 { try StoreFixture.insertNote(context, title: "more \(number)") }
        #expect(context.registeredCount < 1200, "unreferenced saved instances were dropped")
        let again = try context.fetch(FetchRequest(entityName: "Note", predicate: .oneOf("title", ["n1234", "n7"]),
                                                   sortKeys: [.ascending("title")]))
        #expect(again.first === kept && again.last === changed && changed["body"] == "changed")
    }

    @Test("an object can be inserted with a given id, once")
    func insertWithID() throws {
        let fixture = try StoreFixture()
        let context = fixture.store.newContext()
        let uuid = UUID()
        let note = try context.insert("Note", id: uuid)
        #expect(note.objectID == ObjectID(entityName: "Note", uuid: uuid))
        #expect(throws: ContextError.duplicateID(note.objectID)) { try context.insert("Note", id: uuid) }
    }

    @Test("typed access reads Swift values and names the object and key on a mismatch")
    func typedAccess() throws {
        let fixture = try StoreFixture()
        let context = fixture.store.newContext()
        let date = Date(timeIntervalSince1970: 1_000_000)
        let note = try StoreFixture.insertNote(context, title: "Typed", created: date)
        #expect(try note.get("title") == "Typed")
        #expect(try note.get("created", as: Date.self) == date)
        #expect(try note.get("author", as: UUID?.self) == nil)
        #expect(throws: ContextError.typeMismatch(object: note.objectID, key: "title", expected: "Int", found: "string")) {
            try note.get("title", as: Int.self)
        }
        #expect(throws: ContextError.unknownKey(entity: "Note", key: "titel")) { try note.setValue("x", forKey: "titel") }
        note.set("body", "Text")
        #expect(note["body"] == "Text")
    }

    @Test("records with a hand-written mapping insert and fetch through their entity")
    func records() throws {
        struct PersonRecord: ManagedRecord, Equatable {
            static let entityName = "Person"
            var id: ObjectID?
            var firstName: String
            var lastName: String
            var age: Int?

            init(firstName: String, lastName: String, age: Int?) {
                self.firstName = firstName
                self.lastName = lastName
                self.age = age
            }

            init(from object: ManagedObject) throws {
                id = object.objectID
                firstName = try object.get("firstName")
                lastName = try object.get("lastName")
                age = try object.get("age")
            }

            func write(to object: ManagedObject) {
                object.set("firstName", firstName)
                object.set("lastName", lastName)
                object.set("age", age)
            }
        }
        let fixture = try StoreFixture()
        let context = fixture.store.newContext()
        try context.insert(PersonRecord(firstName: "Vera", lastName: "Sidorova", age: nil))
        try context.insert(PersonRecord(firstName: "Anna", lastName: "Ivanova", age: 30))
        try context.save()
        let people = try context.fetch(PersonRecord.self, sortKeys: [.ascending("lastName")])
        #expect(people.map(\.firstName) == ["Anna", "Vera"] && people.map(\.age) == [30, nil])
        #expect(people.allSatisfy { $0.id?.entityName == "Person" })
    }

    @Test("a person has many notes; deleting the person nullifies the notes' author")
    func relationships() throws {
        let fixture = try StoreFixture()
        let context = fixture.store.newContext()
        let anna = try StoreFixture.insertPerson(context, "Anna", "Ivanova")
        let first = try StoreFixture.insertNote(context, title: "First", created: Date(timeIntervalSince1970: 1))
        let second = try StoreFixture.insertNote(context, title: "Second", created: Date(timeIntervalSince1970: 2))
        try first.setRelated("author", to: anna)
        try second.setRelated("author", to: anna)
        try context.save()
        #expect(try first.relatedID("author") == anna.objectID)
        #expect(try context.fetchRelated(anna, "notes", sortKeys: [.ascending("created")]).map(\.objectID)
            == [first.objectID, second.objectID])
        #expect(throws: ContextError.wrongDestination(entity: "Note", key: "author", expected: "Person", got: "Note")) {
            try first.setRelated("author", to: second)
        }
        try second.setRelated("author", to: nil)
        #expect(try second.relatedID("author") == nil)
        try second.setRelated("author", to: anna)

        try context.delete(anna)
        try context.save()
        #expect(first["author"] == nil && !first.hasChanges, "the context's instance follows SQLite's nullify")
        let other = fixture.store.newContext()
        #expect(try other.object(with: second.objectID)?["author"].isNull == true)
        let saved = try #require(fixture.events.all.last)
        #expect(saved.data["deleted"]?["Person"] == [.string(anna.objectID.uuid.uuidString)])
        #expect(Set(saved.data["updated"]?["Note"]?.arrayValue ?? [])
            == [.string(first.objectID.uuid.uuidString), .string(second.objectID.uuid.uuidString)])
    }

    @Test("each save triggers store:did-save listing inserted, updated and deleted ids per entity")
    func didSaveEvent() throws {
        let fixture = try StoreFixture()
        let context = fixture.store.newContext()
        let note = try StoreFixture.insertNote(context, title: "One")
        let person = try StoreFixture.insertPerson(context, "Anna", "Ivanova")
        try context.save()
        note["title"] = "Two"
        try context.delete(person)
        try context.save()
        try context.save()
        let events = fixture.events.all
        #expect(events.map(\.message) == ["store:did-save", "store:did-save"], "a save with no change is silent")
        let noteID = JSONValue.string(note.objectID.uuid.uuidString)
        let personID = JSONValue.string(person.objectID.uuid.uuidString)
        #expect(events[0].data == ["inserted": ["Note": [noteID], "Person": [personID]], "updated": [:], "deleted": [:]])
        #expect(events[1].data == ["inserted": [:], "updated": ["Note": [noteID]], "deleted": ["Person": [personID]]])
    }

    @Test("rollback discards insertions, changes and deletions")
    func rollback() throws {
        let fixture = try StoreFixture()
        let context = fixture.store.newContext()
        let kept = try StoreFixture.insertNote(context, title: "Kept")
        let doomed = try StoreFixture.insertNote(context, title: "Doomed")
        try context.save()
        kept["title"] = "Changed"
        try context.delete(doomed)
        let fresh = try StoreFixture.insertNote(context, title: "Fresh")
        context.rollback()
        #expect(!context.hasChanges)
        #expect(kept["title"] == "Kept" && !doomed.isDeleted && !fresh.isInserted)
        #expect(!context.canUndo)
        try context.save()
        let titles = try context.fetch(FetchRequest(entityName: "Note", sortKeys: [.ascending("title")])).map { $0["title"] }
        #expect(titles == ["Doomed", "Kept"])
    }

    @Test("a save that fails in SQLite writes nothing and keeps the context's changes")
    func saveIsAllOrNothing() throws {
        let fixture = try StoreFixture()
        let context = fixture.store.newContext()
        try context.insert("Favourite", values: ["genreIndex": 7, "genreName": "Фэнтези", "added": .date(Date())])
        try context.save()
        let note = try StoreFixture.insertNote(context, title: "Would be lost")
        try context.insert("Favourite", values: ["genreIndex": 7, "genreName": "Again", "added": .date(Date())])
        #expect {
            try context.save()
        } throws: { error in
            guard case .constraint(let failure) = error as? StoreError else { return false }
            return failure.operation == "save" && failure.path == fixture.url.path
                && failure.message.contains("Favourite.genreIndex")
        }
        #expect(context.hasChanges && note.isInserted)
        let other = fixture.store.newContext()
        #expect(try other.count(for: FetchRequest(entityName: "Note")) == 0)
        #expect(try other.count(for: FetchRequest(entityName: "Favourite")) == 1)
        #expect(fixture.events.all.count == 1)
    }

    @Test("a background context imports off the main thread and its saves are seen by other contexts")
    func backgroundImport() async throws {
        let fixture = try StoreFixture()
        let importer = fixture.store.newBackgroundContext()
        let (count, onMain) = try await importer.perform { context in
            for number in 0..<500 {
                try StoreFixture.insertNote(context, title: "Imported \(number)")
            }
            try context.save()
            return (context.insertedObjects.count, Thread.isMainThread)
        }
        #expect(count == 0 && !onMain)
        #expect(try fixture.store.newContext().count(for: FetchRequest(entityName: "Note")) == 500)
        #expect(fixture.events.all.first?.data["inserted"]?["Note"]?.arrayValue?.count == 500)
    }
}
