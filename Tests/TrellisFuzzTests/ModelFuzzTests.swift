import Foundation
import PropertyBased
import Testing
import TrellisCore
import TrellisStore

/// The model file (`data/model.json`), mutated: parsing never crashes; a refused model names
/// the file and the entity (and attribute, relationship or index) at fault; an accepted model
/// is one SQLite takes — a store is created from it — and reads back from its canonical form.
@Suite("Fuzz: model file")
struct ModelFuzzTests {
    static let source = "fuzz/model.json"

    static let demoModelText = try! String(
        contentsOf: URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("../../data/model.json"),
        encoding: .utf8)

    static let mutator = JSONMutator(words: [
        "version", "entities", "name", "attributes", "relationships", "indexes", "type", "optional", "default",
        "destination", "inverse", "deleteRule", "keys", "unique", "Person", "Note", "Favourite", "title", "body",
        "created", "author", "notes", "firstName", "string", "integer", "double", "bool", "date", "uuid", "data",
        "json", "int", "cascade", "deny", "nullify", "2024-01-01T00:00:00Z", "not a date", "AAEC", "%%%",
        "4B2C5E5A-0D2D-4F5B-9C3B-1A2B3C4D5E6F", "Note_byTitle", "Person_byName",
    ])

    @Test("a mutated model is refused naming file and entity, or accepted and creatable in SQLite")
    func structure() async throws {
        let base = try JSONValue(jsonString: Self.demoModelText)
        let folder = try StoreFolder()
        await propertyCheck(count: 2500, input: Self.mutator.generator(of: base)) { json in
            await Hostile.yieldToOtherTests()
            Self.check(json.jsonData(), in: folder)
        }
    }

    @Test("a model file with broken bytes is refused naming the file, never crashing")
    func bytes() async throws {
        let folder = try StoreFolder()
        await propertyCheck(count: 1500, input: Hostile.mutatedBytes(of: Self.demoModelText)) { data in
            await Hostile.yieldToOtherTests()
            Self.check(data, in: folder)
        }
    }

    // MARK: Regressions found while fuzzing

    @Test("names SQLite would confuse are refused with the entity and member named", arguments: [
        // Table names are case-insensitive in SQLite: "note" would clash with "Note" at CREATE TABLE.
        (#"[{"name": "Note", "attributes": []}, {"name": "note", "attributes": []}]"#, "entity 'note'"),
        // So are column names: "Title" would clash with "title".
        (#"[{"name": "Note", "attributes": [{"name": "title", "type": "string"}, {"name": "Title", "type": "string"}]}]"#,
         "entity 'Note': the key 'Title'"),
        // "ID" is the id column.
        (#"[{"name": "Note", "attributes": [{"name": "ID", "type": "string"}]}]"#, "entity 'Note', attribute 'ID'"),
        // SQLite reserves sqlite_ names; trellis_ names belong to the store.
        (#"[{"name": "sqlite_x", "attributes": []}]"#, "entity 'sqlite_x'"),
        (#"[{"name": "trellis_metadata", "attributes": []}]"#, "entity 'trellis_metadata'"),
        // Indexes share the tables' namespace.
        (#"[{"name": "Note", "attributes": [{"name": "title", "type": "string"}], "indexes": [{"name": "note", "keys": ["title"]}]}]"#,
         "entity 'Note', index 'note'"),
        // The index made for a relationship is trellis_fk_<entity>_<relationship>: A_b.c and A.b_c would share it.
        (#"[{"name": "A_b", "attributes": [], "relationships": [{"name": "c", "destination": "A"}]},"#
            + #" {"name": "A", "attributes": [], "relationships": [{"name": "b_c", "destination": "A_b"}]}]"#,
         "entity 'A', relationship 'b_c': its index trellis_fk_A_b_c clashes with the index of relationship 'c' of entity 'A_b'"),
    ])
    func sqlNameClashes(entities: String, named: String) throws {
        let text = #"{"version": 1, "entities": \#(entities)}"#
        #expect {
            try ManagedObjectModel(jsonString: text, source: Self.source)
        } throws: { error in
            (error as? ModelError) != nil && "\(error)".hasPrefix("\(Self.source): \(named)")
        }
    }

    @Test("SQL-ish names, quotes and reserved words are refused before they reach SQL", arguments: [
        "Note; DROP TABLE x", "Note\"", "x'); DROP TABLE Note; --", "[Note]", "`x`", "é",
    ])
    func sqlishEntityNames(name: String) throws {
        var model = try JSONValue(jsonString: Self.demoModelText)
        model["entities"] = [["name": .string(name), "attributes": []]]
        #expect(throws: ModelError.invalidEntity(file: Self.source, entity: name, reason: "the name must be an ASCII identifier")) {
            try ManagedObjectModel(jsonData: model.jsonData(), source: Self.source)
        }
    }

    @Test("SQL keywords are fine as quoted names, and a default with quotes is stored verbatim")
    func keywordsAndQuotedDefault() throws {
        let text = #"""
            {"version": 1, "entities": [{"name": "select", "attributes": [
              {"name": "order", "type": "string", "default": "it's \"quoted\"; DROP TABLE x; --"},
              {"name": "group", "type": "integer", "optional": true}]}]}
            """#
        let model = try ManagedObjectModel(jsonString: text, source: Self.source)
        let folder = try StoreFolder()
        let store = try PersistentStore(url: folder.newStoreURL(), model: model)
        let context = store.newContext()
        let row = try context.insert("select")
        try context.save()
        #expect(try context.fetch(FetchRequest(entityName: "select")).first?["order"] == .string(#"it's "quoted"; DROP TABLE x; --"#))
        #expect(row["group"] == .null)
        try store.close()
    }

    // MARK: Checks

    static func check(_ data: Data, in folder: StoreFolder) {
        let model: ManagedObjectModel
        do {
            model = try ManagedObjectModel(jsonData: data, source: source)
        } catch let error as ModelError {
            expectNamesPlace(error, in: try? JSONValue(jsonData: data))
            return
        } catch {
            Issue.record("untyped error \(error)")
            return
        }
        #expect((try? ManagedObjectModel(jsonData: model.json.jsonData(), source: source)) == model, "canonical form reads back")
        do {
            let store = try PersistentStore(url: folder.newStoreURL(), model: model)
            try store.close()
        } catch {
            Issue.record("the parser accepted a model SQLite refuses: \(error)\n\(model.json.jsonString)")
        }
    }

    /// The message starts with the file; an entity-level problem names an entity of the
    /// document, and a member-level one a member of that entity.
    static func expectNamesPlace(_ error: ModelError, in document: JSONValue?) {
        #expect(error.description.hasPrefix(source + ": "))
        let entities = document?["entities"]?.arrayValue?.filter { $0["name"]?.stringValue != nil } ?? []
        func members(_ kind: String, of entity: String) -> [String] {
            entities.filter { $0["name"]?.stringValue == entity }
                .flatMap { $0[kind]?.arrayValue ?? [] }.compactMap { $0["name"]?.stringValue }
        }
        let entityNames = entities.compactMap { $0["name"]?.stringValue }
        switch error {
        case .unreadable, .invalidModel:
            break
        case .invalidEntity(_, let entity, _), .invalidIndex(_, let entity, _, _):
            #expect(entityNames.contains(entity), "names an entity of the file: \(error)")
        case .invalidAttribute(_, let entity, let attribute, _):
            #expect(members("attributes", of: entity).contains(attribute), "names an attribute of the file: \(error)")
        case .invalidRelationship(_, let entity, let relationship, _):
            #expect(members("relationships", of: entity).contains(relationship), "names a relationship of the file: \(error)")
        }
    }
}

/// A temporary folder of store files, one subfolder per store, removed with the folder.
final class StoreFolder: Sendable {
    let url = FileManager.default.temporaryDirectory.appendingPathComponent("trellis-fuzz-\(UUID().uuidString)")

    init() throws {
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    }

    deinit {
        try? FileManager.default.removeItem(at: url)
    }

    /// A store path in a new subfolder.
    func newStoreURL() -> URL {
        url.appendingPathComponent(UUID().uuidString).appendingPathComponent("store.sqlite")
    }
}
