import Foundation
import Testing
@testable import TrellisStore

@Suite("Validation at save")
struct ValidationTests {
    @Test("missing required values, wrong types and unknown keys are all reported, naming object and key")
    func builtInRules() throws {
        let fixture = try StoreFixture()
        let context = fixture.store.newContext()
        let note = try context.insert("Note")
        note["created"] = "yesterday"
        note["titel"] = "typo"
        #expect {
            try context.save()
        } throws: { error in
            guard let error = error as? SaveValidationError else { return false }
            let id = note.objectID
            return error.issues == [
                ValidationIssue(object: id, key: "titel", reason: "no such attribute or relationship"),
                ValidationIssue(object: id, key: "title", reason: "a value is required"),
                ValidationIssue(object: id, key: "created", reason: "expects a date, got a string"),
                ValidationIssue(object: id, key: "updated", reason: "a value is required"),
            ] && error.description.hasPrefix("cannot save: \(id) 'titel': no such attribute or relationship; \(id) 'title': a value is required")
        }
        #expect(context.hasChanges)
        #expect(try fixture.store.newContext().count(for: FetchRequest(entityName: "Note")) == 0)
    }

    @Test("a custom rule registered for an entity is checked at save with its key and reason")
    func customRule() throws {
        let fixture = try StoreFixture()
        try fixture.store.addValidationRule(for: "Person", key: "age") { person in
            guard let age = person["age"].intValue, age < 0 else { return nil }
            return "must not be negative"
        }
        let context = fixture.store.newContext()
        let person = try StoreFixture.insertPerson(context, "Anna", "Ivanova", age: -1)
        #expect(throws: SaveValidationError(issues: [ValidationIssue(object: person.objectID, key: "age",
                                                                 reason: "must not be negative")])) {
            try context.save()
        }
        person["age"] = 1
        try context.save()
        #expect(throws: ContextError.unknownKey(entity: "Person", key: "height")) {
            try fixture.store.addValidationRule(for: "Person", key: "height") { _ in nil }
        }
    }

    @Test("a relationship holding something other than an object id is reported")
    func relationshipType() throws {
        let fixture = try StoreFixture()
        let context = fixture.store.newContext()
        let note = try StoreFixture.insertNote(context, title: "t")
        note["author"] = "Anna"
        #expect(throws: SaveValidationError(issues: [ValidationIssue(object: note.objectID, key: "author",
                                                                 reason: "expects an object id of Person, got a string")])) {
            try context.save()
        }
    }

    @Test("deleted objects are not validated")
    func deletedNotValidated() throws {
        let fixture = try StoreFixture()
        let context = fixture.store.newContext()
        let note = try StoreFixture.insertNote(context, title: "t")
        try context.save()
        note["title"] = nil
        try context.delete(note)
        try context.save()
        #expect(try context.count(for: FetchRequest(entityName: "Note")) == 0)
    }
}
