import Foundation
import GRDB
import Testing
import TrellisCore
@testable import TrellisStore

@Suite("Save writer: several rows per INSERT")
struct SaveWriterTests {
    @Test("runs longer than one statement's rows, with a remainder and other entities between them, save every value in insertion order")
    func manyRowsPerStatement() throws {
        let fixture = try StoreFixture()
        let context = fixture.store.newContext()
        let perStatement = SaveWriter.insertRowsPerStatement(columns: 7)
        #expect(perStatement > 1)
        var expected: [(id: UUID, title: String)] = []
        // A run of two statements and a remainder, a person, then a run of one note.
        for number in 0..<(2 * perStatement + 3) {
            let note = try StoreFixture.insertNote(context, title: "Note \(number)",
                                                   created: Date(timeIntervalSince1970: Double(number)))
            note["body"] = .string(number.isMultiple(of: 2) ? "even" : "odd")
            expected.append((note.objectID.uuid, "Note \(number)"))
        }
        let person = try StoreFixture.insertPerson(context, "Anna", "Ivanova", age: 30)
        let last = try StoreFixture.insertNote(context, title: "Last")
        try last.setRelated("author", to: person)
        expected.append((last.objectID.uuid, "Last"))
        try context.save()

        let rows = try fixture.store.read("read back") { db in
            try Row.fetchAll(db, sql: "SELECT id, title, body, created, author FROM Note ORDER BY rowid")
        }
        #expect(rows.map { $0["id"] as String } == expected.map(\.id.uuidString))
        #expect(rows.map { $0["title"] as String } == expected.map(\.title))
        #expect(rows.prefix(4).map { $0["body"] as String } == ["even", "odd", "even", "odd"])
        #expect(rows.prefix(3).map { $0["created"] as Double } == [0, 1, 2])
        #expect(rows.last?["author"] as String? == person.objectID.uuid.uuidString)
        #expect(rows.dropLast().allSatisfy { ($0["author"] as String?) == nil })
        #expect(try fixture.store.read("people") { db in try Int.fetchOne(db, sql: "SELECT count(*) FROM Person") } == 1)
        let noteIDs = JSONValue.array(expected.map { .string($0.id.uuidString) })
        let personIDs = JSONValue.array([.string(person.objectID.uuid.uuidString)])
        #expect(fixture.events.all.map(\.data) == [["inserted": ["Note": noteIDs, "Person": personIDs], "updated": [:],
                                                    "deleted": [:]]])
    }

    @Test("a duplicate inside one statement's rows fails the save, which writes nothing")
    func duplicateInsideStatement() throws {
        let fixture = try StoreFixture()
        let context = fixture.store.newContext()
        for number in 0..<10 {
            // genreIndex is unique: the sixth favourite repeats the fifth's.
            try context.insert("Favourite", values: ["genreIndex": .integer(number == 5 ? 4 : number),
                                                     "genreName": .string("Genre \(number)"), "added": .date(Date())])
        }
        #expect {
            try context.save()
        } throws: { error in
            guard case .constraint(let failure) = error as? StoreError else { return false }
            return failure.operation == "save" && failure.message.contains("Favourite.genreIndex")
        }
        #expect(context.hasChanges)
        #expect(try fixture.store.newContext().count(for: FetchRequest(entityName: "Favourite")) == 0)
    }
}
