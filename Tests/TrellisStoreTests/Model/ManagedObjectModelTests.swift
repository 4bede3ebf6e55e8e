import Foundation
import Testing
import TrellisCore
@testable import TrellisStore

@Suite("Managed object model")
struct ManagedObjectModelTests {
    @Test("the demo model file loads with Person, Note, Favourite and the author relationship")
    func demoModelLoads() throws {
        let model = try Fixtures.demoModel()
        #expect(model.version == 5)
        #expect(model.entities.map(\.name) == ["Person", "Note", "Favourite", "SyncRecord", "SyncOutboxEntry", "SyncServer",
                                               "SyncTrashEntry", "SyncConflictEntry"])
        let person = try #require(model.entity(named: "Person"))
        #expect(person.keys == ["firstName", "lastName", "age"])
        #expect(person.attribute(named: "age")?.isOptional == true)
        let note = try #require(model.entity(named: "Note"))
        #expect(note.attribute(named: "body")?.defaultValue == "")
        #expect(note.attribute(named: "created")?.type == .date)
        let author = try #require(note.relationship(named: "author"))
        #expect(author.destination == "Person")
        #expect(author.inverse == "notes")
        #expect(model.entity(named: "Favourite")?.indexes.first?.isUnique == true)
    }

    @Test("the canonical JSON form reads back as an equal model")
    func canonicalRoundTrip() throws {
        let model = try Fixtures.demoModel()
        let again = try ManagedObjectModel(jsonString: model.json.jsonString, source: "round trip")
        #expect(again == model)
    }

    @Test("an unknown attribute type names the file, entity and attribute")
    func unknownType() throws {
        let json = #"{"version": 1, "entities": [{"name": "Person", "attributes": [{"name": "age", "type": "int"}]}]}"#
        #expect {
            try Fixtures.model(json, name: "people.json")
        } throws: { error in
            let text = String(describing: error)
            return error as? ModelError == .invalidAttribute(file: "people.json", entity: "Person", attribute: "age",
                                                               reason: "unknown type 'int' (expected one of string, integer, double, bool, date, uuid, data, json)")
                && text.hasPrefix("people.json: entity 'Person', attribute 'age': unknown type 'int'")
        }
    }

    @Test("a default of the wrong type is refused")
    func defaultTypeMismatch() throws {
        let json = #"{"version": 1, "entities": [{"name": "N", "attributes": [{"name": "n", "type": "integer", "default": "x"}]}]}"#
        #expect(throws: ModelError.invalidAttribute(file: "m.json", entity: "N", attribute: "n",
                                                    reason: #"the default "x" is not a integer"#)) {
            try Fixtures.model(json, name: "m.json")
        }
    }

    @Test("a misspelt member is refused instead of ignored")
    func unknownMember() throws {
        let json = #"{"version": 1, "entities": [{"name": "N", "attributes": [{"name": "n", "type": "string", "optinal": true}]}]}"#
        #expect(throws: ModelError.invalidAttribute(file: "m.json", entity: "N", attribute: "n",
                                                    reason: "unknown member 'optinal'")) {
            try Fixtures.model(json, name: "m.json")
        }
    }

    @Test("reserved and non-identifier names are refused")
    func reservedNames() throws {
        for name in ["id", "trellis_x", "1abc", "a b", "ф"] {
            let json = #"{"version": 1, "entities": [{"name": "N", "attributes": [{"name": "\#(name)", "type": "string"}]}]}"#
            #expect(throws: ModelError.self) { try Fixtures.model(json) }
        }
    }

    @Test("a relationship to an unknown entity names the relationship")
    func unknownDestination() throws {
        let json = #"""
            {"version": 1, "entities": [{"name": "Note", "attributes": [],
              "relationships": [{"name": "author", "destination": "Persn"}]}]}
            """#
        #expect(throws: ModelError.invalidRelationship(file: "m.json", entity: "Note", relationship: "author",
                                                       reason: "unknown destination entity 'Persn'")) {
            try Fixtures.model(json, name: "m.json")
        }
    }

    @Test("an index over an unknown key names the index")
    func indexUnknownKey() throws {
        let json = #"""
            {"version": 1, "entities": [{"name": "Note", "attributes": [{"name": "title", "type": "string"}],
              "indexes": [{"name": "byTitle", "keys": ["titel"]}]}]}
            """#
        #expect(throws: ModelError.invalidIndex(file: "m.json", entity: "Note", index: "byTitle",
                                                reason: "'titel' is not an attribute or relationship of Note")) {
            try Fixtures.model(json, name: "m.json")
        }
    }

    @Test("a duplicate entity and a missing version are refused")
    func duplicatesAndVersion() throws {
        let twice = #"{"version": 1, "entities": [{"name": "N", "attributes": []}, {"name": "N", "attributes": []}]}"#
        #expect(throws: ModelError.invalidEntity(file: "m.json", entity: "N", reason: "declared twice")) {
            try Fixtures.model(twice, name: "m.json")
        }
        let noVersion = #"{"entities": [{"name": "N", "attributes": []}]}"#
        #expect(throws: ModelError.invalidModel(file: "m.json", reason: "'version' must be a positive integer")) {
            try Fixtures.model(noVersion, name: "m.json")
        }
    }

    @Test("a file that is not JSON names the file")
    func notJSON() throws {
        #expect {
            try Fixtures.model("{ version: 1", name: "broken.json")
        } throws: { error in
            String(describing: error).hasPrefix("broken.json: invalid model: not JSON")
        }
    }

    @Test("a missing file is reported as unreadable with its path")
    func missingFile() throws {
        let url = URL(fileURLWithPath: "/nonexistent/model.json")
        #expect {
            try ManagedObjectModel(contentsOf: url)
        } throws: { error in
            if case .unreadable(let file, _) = error as? ModelError { return file == "/nonexistent/model.json" }
            return false
        }
    }

    @Test("attribute values convert to and from JSON by type")
    func valueJSON() throws {
        let date = Date(timeIntervalSince1970: 1_700_000_000.25)
        let values: [(AttributeValue, AttributeType)] = [
            ("текст", .string), (42, .integer), (2.5, .double), (true, .bool), (.date(date), .date),
            (.uuid(UUID()), .uuid), (.data(Data([1, 2, 3])), .data), (.json(["a": [1, 2]]), .json),
        ]
        for (value, type) in values {
            #expect(AttributeValue(json: value.json, as: type) == value)
        }
        #expect(AttributeValue.integer(3).conformed(to: .double) == .double(3))
        #expect(AttributeValue.string("3").conformed(to: .integer) == nil)
    }

    @Test("a string default with a NUL character is refused naming the file and the attribute (it would cut the table's SQL short)")
    func nulDefault() {
        let text = #"{"version": 1, "entities": [{"name": "Note", "attributes": [{"name": "body", "type": "string", "default": "a\u0000b"}]}]}"#
        #expect {
            try ManagedObjectModel(jsonString: text, source: "nul.json")
        } throws: { error in
            "\(error)".contains("nul.json") && "\(error)".contains("body") && "\(error)".contains("NUL")
        }
    }
}
