import Foundation
import Testing
import TrellisCore
@testable import TrellisStore

/// A note of the demo model as a `Codable` record; `author` is its to-one relationship.
private struct NoteRecord: ManagedRecord, Codable, Equatable {
    static let entityName = "Note"
    var id: ObjectID?
    var title: String
    var body: String
    var created: Date
    var updated: Date
    var author: ObjectID?

    init(title: String, body: String = "", at date: Date = Date(timeIntervalSince1970: 1_000), author: ObjectID? = nil) {
        self.title = title
        self.body = body
        created = date
        updated = date
        self.author = author
    }
}

/// A person with an optional age, read as a width other than `Int`.
private struct PersonRecord: ManagedRecord, Codable, Equatable {
    static let entityName = "Person"
    var id: ObjectID?
    var firstName: String
    var lastName: String
    var age: Int16?
}

@MainActor
@Suite("Typed records: Codable structs fetched, inserted, updated and observed as values")
struct ManagedRecordTests {
    @Test("a record inserted, saved and fetched comes back equal, with its object's id")
    func roundTrip() throws {
        let fixture = try StoreFixture()
        let context = fixture.store.newContext()
        let anna = PersonRecord(firstName: "Анна", lastName: "Ахматова", age: 76)
        let annaID = try context.insert(anna)
        var note = NoteRecord(title: "Покупки", body: "хлеб", author: annaID)
        note.id = try context.insert(note)
        try context.save()

        let fetched = try fixture.store.newContext().fetch(RecordRequest<NoteRecord>())
        #expect(fetched == [note])
        #expect(note.id?.entityName == "Note")
        let person = try #require(try fixture.store.newContext().record(PersonRecord.self, id: annaID))
        #expect(person.age == 76 && person.id == annaID)
        #expect(try context.object(with: #require(note.id))?["title"] == "Покупки", "the attributes are the properties")
    }

    @Test("updating writes the changed properties, a nil optional as null, and keeps the identity")
    func update() throws {
        let fixture = try StoreFixture()
        let context = fixture.store.newContext()
        var person = PersonRecord(firstName: "Ada", lastName: "Lovelace", age: 36)
        person.id = try context.insert(person)
        try context.save()

        person.lastName = "King"
        person.age = nil
        try context.update(person)
        #expect(context.hasChanges)
        try context.save()
        let people = try fixture.store.newContext().fetch(PersonRecord.self)
        #expect(people == [person])
        #expect(try context.count(for: RecordRequest<PersonRecord>(predicate: .equal("lastName", "King"))) == 1)
    }

    @Test("deleting a record deletes its object; a record never inserted cannot be updated or deleted")
    func delete() throws {
        let fixture = try StoreFixture()
        let context = fixture.store.newContext()
        var note = NoteRecord(title: "old")
        note.id = try context.insert(note)
        try context.save()

        try context.delete(note)
        try context.save()
        #expect(try context.fetch(RecordRequest<NoteRecord>()).isEmpty)
        #expect(throws: ContextError.noObject(try #require(note.id))) { try context.update(note) }
        #expect(throws: ContextError.recordNotInserted(entity: "Note")) { try context.delete(NoteRecord(title: "new")) }
    }

    @Test("typed fetched results follow a save live, as records")
    func observesLive() async throws {
        let fixture = try StoreFixture()
        let context = fixture.store.newContext()
        try context.insert(NoteRecord(title: "first", at: Date(timeIntervalSince1970: 1)))
        try context.save()
        let notes = try FetchedRecords(RecordRequest<NoteRecord>(sortKeys: [.descending("created")]), context: context)
        #expect(try notes.records().map(\.title) == ["first"])

        var second = NoteRecord(title: "second", at: Date(timeIntervalSince1970: 2))
        second.id = try context.insert(second)
        try context.save()
        // The change comes from the main queue, after this test awaits it.
        let change = await withCheckedContinuation { arrived in
            notes.onChange = { change in
                notes.onChange = nil
                arrived.resume(returning: change)
            }
        }
        #expect(change.inserted.map(\.path) == [TableIndexPath(row: 0)])
        #expect(try notes.record(at: TableIndexPath(row: 0)) == second)
        #expect(try notes.indexPath(of: second) == TableIndexPath(row: 0))
        #expect(try notes.records().map(\.title) == ["second", "first"])
    }

    @Test("a table of a typed request's rows gives each row's object id and record")
    func tableItems() throws {
        let fixture = try StoreFixture()
        let context = fixture.store.newContext()
        var note = NoteRecord(title: "Покупки")
        note.id = try context.insert(note)
        try context.save()
        let source = try FetchedSource(request: RecordRequest<NoteRecord>(), context: context)
        let item = source.item(at: TableIndexPath(row: 0))
        #expect(item.objectID == note.id)
        #expect(try item.record(as: NoteRecord.self) == note)
        #expect(try item.record(as: PersonRecord.self) == nil, "a row of another entity is not a person")
    }

    @Test("a property whose type does not fit its attribute fails naming the entity, the attribute and both types")
    func mismatch() throws {
        struct TitleAsNumber: ManagedRecord, Codable {
            static let entityName = "Note"
            var id: ObjectID?
            var title: Int
        }
        struct Misspelt: ManagedRecord, Codable {
            static let entityName = "Note"
            var id: ObjectID?
            var titel: String?
        }
        let fixture = try StoreFixture()
        let context = fixture.store.newContext()
        let id = try context.insert(NoteRecord(title: "Покупки"))
        try context.save()

        let read = #expect(throws: ContextError.self) { try context.record(TitleAsNumber.self, id: id) }
        #expect(read?.description == "\(id) 'title': expected Int, found string")
        let written = #expect(throws: ContextError.self) { try context.update(TitleAsNumber(id: id, title: 5)) }
        #expect(written?.description == "\(id) 'title': expected string, found Int (integer)")
        #expect(throws: ContextError.unknownKey(entity: "Note", key: "titel")) { try context.record(Misspelt.self, id: id) }
        #expect(throws: ContextError.unknownKey(entity: "Note", key: "titel")) { try context.update(Misspelt(id: id)) }
        struct TitleAsList: ManagedRecord, Codable {
            static let entityName = "Note"
            var id: ObjectID?
            var title: [String]
        }
        let list = #expect(throws: ContextError.self) { try context.update(TitleAsList(id: id, title: ["a"])) }
        #expect(list?.description == "\(id) 'title': expected string, found Array<String>")
        let listRead = #expect(throws: ContextError.self) { try context.record(TitleAsList.self, id: id) }
        #expect(listRead?.description == "\(id) 'title': expected Array<String>, found \"Покупки\"")
        struct HugeAge: ManagedRecord, Codable {
            static let entityName = "Person"
            var id: ObjectID?
            var age: UInt64
        }
        let person = try StoreFixture.insertPerson(context, "Anna", "Ivanova").objectID
        let huge = #expect(throws: ContextError.self) { try context.update(HugeAge(id: person, age: .max)) }
        #expect(huge?.description == "\(person) 'age': expected integer, found UInt64")
        #expect(try context.record(NoteRecord.self, id: id)?.title == "Покупки", "a refused write changes nothing")
    }

    @Test("a property of a type that codes itself as one value (an enum with a raw value) reads and writes through it")
    func singleValueTypes() throws {
        enum Family: String, Codable { case ivanova = "Ivanova", petrova = "Petrova" }
        struct Member: ManagedRecord, Codable, Equatable {
            static let entityName = "Person"
            var id: ObjectID?
            var firstName: String
            var lastName: Family
        }
        let fixture = try StoreFixture()
        let context = fixture.store.newContext()
        var anna = Member(firstName: "Anna", lastName: .ivanova)
        anna.id = try context.insert(anna)
        try context.save()
        #expect(try context.object(with: #require(anna.id))?["lastName"] == "Ivanova")
        #expect(try fixture.store.newContext().fetch(Member.self) == [anna])

        let boris = try StoreFixture.insertPerson(context, "Boris", "Sidorov")
        try context.save()
        let error = #expect(throws: ContextError.self) { try context.fetch(Member.self) }
        #expect(error?.description == "\(boris.objectID) 'lastName': expected Family, found \"Sidorov\"")
    }

    @Test("inserting and updating records are undo steps of the context")
    func undo() throws {
        let fixture = try StoreFixture()
        let context = fixture.store.newContext()
        var note = NoteRecord(title: "Shopping")
        note.id = try context.insert(note)
        try context.save()
        context.removeAllUndoActions()

        note.title = "Groceries"
        note.body = "milk"
        try context.update(note)
        #expect(context.undoActionName == "Update Note")
        context.undo()
        #expect(try context.record(NoteRecord.self, id: #require(note.id))?.title == "Shopping")
        #expect(try context.record(NoteRecord.self, id: #require(note.id))?.body == "")
        context.redo()
        #expect(try context.record(NoteRecord.self, id: #require(note.id)) == note)

        let added = try context.insert(NoteRecord(title: "Added"))
        context.undo()
        #expect(try context.record(NoteRecord.self, id: added) == nil, "the insertion is undone")
    }
}
