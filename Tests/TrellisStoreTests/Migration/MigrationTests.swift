import Foundation
import GRDB
import Testing
@testable import TrellisStore

@Suite("Lightweight migration")
struct MigrationTests {
    static let version1 = #"""
        {"version": 1, "entities": [
          {"name": "Person", "attributes": [
            {"name": "firstName", "type": "string"}, {"name": "lastName", "type": "string"},
            {"name": "age", "type": "integer", "optional": true}]},
          {"name": "Note", "attributes": [
            {"name": "title", "type": "string"}, {"name": "body", "type": "string", "default": ""}],
           "indexes": [{"name": "Note_byTitle", "keys": ["title"]}]}]}
        """#

    /// Version 2: a new entity, an optional attribute, an attribute with a default, a new
    /// optional relationship, a new index, a dropped attribute (Note.body).
    static let version2 = #"""
        {"version": 2, "entities": [
          {"name": "Person", "attributes": [
            {"name": "firstName", "type": "string"}, {"name": "lastName", "type": "string"},
            {"name": "age", "type": "integer", "optional": true},
            {"name": "email", "type": "string", "optional": true},
            {"name": "rating", "type": "double", "default": 2.5}],
           "indexes": [{"name": "Person_byName", "keys": ["lastName", "firstName"]}]},
          {"name": "Note", "attributes": [{"name": "title", "type": "string"}],
           "relationships": [{"name": "author", "destination": "Person", "inverse": "notes"}],
           "indexes": [{"name": "Note_byTitle", "keys": ["title"]}]},
          {"name": "Tag", "attributes": [{"name": "label", "type": "string"}]}]}
        """#

    /// Creates a version-1 store with 3 people and 2 notes, closes it, returns its URL.
    private func makeVersion1Store() throws -> URL {
        let url = try Fixtures.storeURL()
        let store = try PersistentStore(url: url, model: try Fixtures.model(Self.version1))
        try store.write("fill") { db in
            for (id, first, last, age) in [("p1", "Anna", "Ivanova", 30), ("p2", "Boris", "Petrov", 41), ("p3", "Vera", "Sidorova", 25)] {
                try db.execute(sql: "INSERT INTO Person (id, firstName, lastName, age) VALUES (?, ?, ?, ?)",
                               arguments: [id, first, last, age])
            }
            try db.execute(sql: "INSERT INTO Note (id, title, body) VALUES ('n1', 'One', 'first'), ('n2', 'Two', 'second')")
        }
        try store.close()
        return url
    }

    /// The bytes of the database and of any companion file.
    private func fileBytes(_ url: URL) -> [Data?] {
        StoreFile.companions(of: url.path).map { FileManager.default.contents(atPath: $0) }
    }

    private func version1(changing edit: (String) -> String) throws -> ManagedObjectModel {
        try Fixtures.model(edit(Self.version1).replacingOccurrences(of: #""version": 1"#, with: #""version": 2"#))
    }

    @Test("a version 1 store opens under version 2 with every row kept and the new schema in place")
    func lightweightMigration() throws {
        let url = try makeVersion1Store()
        let store = try PersistentStore(url: url, model: try Fixtures.model(Self.version2))
        let people = try store.read("people") { db in
            try Row.fetchAll(db, sql: "SELECT id, firstName, age, email, rating FROM Person ORDER BY id")
        }
        #expect(people.map { $0["id"] as String } == ["p1", "p2", "p3"])
        #expect(people.map { $0["age"] as Int } == [30, 41, 25])
        #expect(people.allSatisfy { ($0["email"] as String?) == nil && ($0["rating"] as Double) == 2.5 })
        let notes = try store.read("notes") { db in try Row.fetchAll(db, sql: "SELECT * FROM Note ORDER BY id") }
        #expect(notes.map { $0["title"] as String } == ["One", "Two"])
        #expect(notes.first?.hasColumn("body") == false)
        #expect(notes.first?.hasColumn("author") == true)
        let schema = try store.read("schema") { db in
            (try db.tableExists("Tag"), try db.indexes(on: "Person").map(\.name), try db.indexes(on: "Note").map(\.name))
        }
        #expect(schema.0)
        #expect(schema.1.contains("Person_byName"))
        #expect(schema.2.contains("trellis_fk_Note_author"))
        let version = try store.read("metadata") { db in
            try String.fetchOne(db, sql: "SELECT value FROM trellis_metadata WHERE key = 'model_version'")
        }
        #expect(version == "2")
        #expect(try store.integrityCheck() == ["ok"])
        try store.close()
        // The migrated store opens again under version 2 without further change.
        _ = try PersistentStore(url: url, model: try Fixtures.model(Self.version2))
    }

    @Test("a new required attribute without a default is refused, naming entity and attribute, file untouched")
    func newRequiredAttributeRefused() throws {
        let url = try makeVersion1Store()
        let before = fileBytes(url)
        let model = try version1 {
            $0.replacingOccurrences(of: #"{"name": "lastName", "type": "string"},"#,
                                    with: #"{"name": "lastName", "type": "string"}, {"name": "email", "type": "string"},"#)
        }
        #expect(throws: StoreError.migrationNotInferable(
            path: url.path, entity: "Person", key: "email",
            reason: "a new required attribute needs a default value or must be optional")) {
            try PersistentStore(url: url, model: model)
        }
        #expect(fileBytes(url) == before)
    }

    @Test("a changed attribute type is refused with a message naming entity and attribute, file untouched")
    func typeChangeRefused() throws {
        let url = try makeVersion1Store()
        let before = fileBytes(url)
        let model = try version1 {
            $0.replacingOccurrences(of: #"{"name": "age", "type": "integer""#, with: #"{"name": "age", "type": "string""#)
        }
        #expect {
            try PersistentStore(url: url, model: model)
        } throws: { error in
            String(describing: error).contains("cannot migrate entity 'Person', key 'age' automatically: "
                + "its type changed from integer to string; the store was not modified")
        }
        #expect(fileBytes(url) == before)
    }

    @Test("a removed entity is refused rather than dropping its rows")
    func removedEntityRefused() throws {
        let url = try makeVersion1Store()
        let model = try Fixtures.model(#"""
            {"version": 2, "entities": [{"name": "Person", "attributes": [
              {"name": "firstName", "type": "string"}, {"name": "lastName", "type": "string"},
              {"name": "age", "type": "integer", "optional": true}]}]}
            """#)
        #expect(throws: StoreError.migrationNotInferable(path: url.path, entity: "Note", key: nil,
                                                         reason: "the entity was removed, which would delete its rows")) {
            try PersistentStore(url: url, model: model)
        }
    }

    @Test("a model older than the store is refused")
    func olderModelRefused() throws {
        let url = try makeVersion1Store()
        try PersistentStore(url: url, model: try Fixtures.model(Self.version2)).close()
        #expect(throws: StoreError.modelOlderThanStore(path: url.path, storeVersion: 2, modelVersion: 1)) {
            try PersistentStore(url: url, model: try Fixtures.model(Self.version1))
        }
    }

    @Test("a changed model that keeps its version is refused and asks for a new version")
    func changedWithoutVersion() throws {
        let url = try makeVersion1Store()
        let model = try Fixtures.model(Self.version1.replacingOccurrences(
            of: #"{"name": "title", "type": "string"}"#, with: #"{"name": "title", "type": "string"}, {"name": "x", "type": "bool", "optional": true}"#))
        #expect {
            try PersistentStore(url: url, model: model)
        } throws: { error in
            guard case .modelChangedWithoutNewVersion(_, 1, let change) = error as? StoreError else { return false }
            return change == "new key Note.x"
        }
    }

    @Test("a migration that fails midway rolls back entirely and the store stays at version 1")
    func failedMigrationRollsBack() throws {
        let url = try makeVersion1Store()
        // A unique index over a column with equal values fails after the column was added.
        let model = try version1 {
            $0.replacingOccurrences(of: #"{"name": "Note_byTitle", "keys": ["title"]}"#,
                                    with: #"{"name": "Note_byTitle", "keys": ["title"]}, {"name": "Note_uniqueBody", "keys": ["flag"], "unique": true}"#)
                .replacingOccurrences(of: #"{"name": "title", "type": "string"}"#,
                                      with: #"{"name": "title", "type": "string"}, {"name": "flag", "type": "bool", "default": false}"#)
        }
        #expect {
            try PersistentStore(url: url, model: model)
        } throws: { error in
            guard case .constraint(let failure) = error as? StoreError else { return false }
            return failure.operation == "migrate to model version 2"
        }
        let store = try PersistentStore(url: url, model: try Fixtures.model(Self.version1))
        let columns = try store.read("columns") { db in try db.columns(in: "Note").map(\.name) }
        #expect(columns == ["id", "title", "body"])
        #expect(try store.read("count") { db in try Int.fetchOne(db, sql: "SELECT count(*) FROM Note") } == 2)
    }
}
