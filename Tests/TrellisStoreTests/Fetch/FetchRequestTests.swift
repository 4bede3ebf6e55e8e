import Foundation
import Testing
@testable import TrellisStore

@Suite("Fetch requests and predicates")
struct FetchRequestTests {
    /// People: Ivanov Anna 30, Ivanov Boris nil, Petrova Vera 25, Sidorov Gleb 41.
    private func peopleStore() throws -> (StoreFixture, ManagedObjectContext) {
        let fixture = try StoreFixture()
        let context = fixture.store.newContext()
        try StoreFixture.insertPerson(context, "Anna", "Ivanov", age: 30)
        try StoreFixture.insertPerson(context, "Boris", "Ivanov")
        try StoreFixture.insertPerson(context, "Vera", "Petrova", age: 25)
        try StoreFixture.insertPerson(context, "Gleb", "Sidorov", age: 41)
        try context.save()
        return (fixture, context)
    }

    private func names(_ context: ManagedObjectContext, _ predicate: FetchPredicate?,
                       sort: [SortKey] = [.ascending("firstName")]) throws -> [String]
    {
        try context.fetch(FetchRequest(entityName: "Person", predicate: predicate, sortKeys: sort))
            .map { $0["firstName"].stringValue ?? "?" }
    }

    @Test("comparisons, nil semantics, oneOf and boolean combinations select the right people")
    func predicates() throws {
        let (_, context) = try peopleStore()
        #expect(try names(context, .equal("lastName", "Ivanov")) == ["Anna", "Boris"])
        #expect(try names(context, .equal("age", nil)) == ["Boris"])
        #expect(try names(context, .notEqual("age", 30)) == ["Boris", "Gleb", "Vera"])
        #expect(try names(context, .greater("age", 25)) == ["Anna", "Gleb"])
        #expect(try names(context, .lessOrEqual("age", 30.0)) == ["Anna", "Vera"])
        #expect(try names(context, .oneOf("firstName", ["Vera", "Gleb", "Nobody"])) == ["Gleb", "Vera"])
        #expect(try names(context, .equal("lastName", "Ivanov") && .greater("age", 18)) == ["Anna"])
        #expect(try names(context, .equal("age", 25) || .equal("age", 41)) == ["Gleb", "Vera"])
        #expect(try names(context, !.greater("age", 26)) == ["Boris", "Vera"], "not(unknown) counts as not matching")
        #expect(try names(context, .and([])) == ["Anna", "Boris", "Gleb", "Vera"])
        #expect(try names(context, .or([])) == [])
    }

    @Test("text search folds Unicode case: ф finds Фэнтези")
    func unicodeSearch() throws {
        let fixture = try StoreFixture()
        let context = fixture.store.newContext()
        for title in ["Фэнтези", "Научная фантастика", "Детектив", "ФАНТАСТИКА"] {
            try StoreFixture.insertNote(context, title: title)
        }
        try context.save()
        func titles(_ predicate: FetchPredicate) throws -> [String] {
            try context.fetch(FetchRequest(entityName: "Note", predicate: predicate, sortKeys: [.ascending("title")]))
                .map { $0["title"].stringValue ?? "" }
        }
        #expect(try titles(.contains("title", "ф")) == ["Научная фантастика", "ФАНТАСТИКА", "Фэнтези"])
        #expect(try titles(.contains("title", "ф", caseInsensitive: false)) == ["Научная фантастика"])
        #expect(try titles(.beginsWith("title", "фа")) == ["ФАНТАСТИКА"])
        #expect(try titles(.beginsWith("title", "Ф", caseInsensitive: false)) == ["ФАНТАСТИКА", "Фэнтези"])
    }

    @Test("sort keys order the results, ties broken by id in the last key's direction")
    func sorting() throws {
        let (_, context) = try peopleStore()
        #expect(try names(context, nil, sort: [.ascending("lastName"), .descending("firstName")])
            == ["Boris", "Anna", "Vera", "Gleb"])
        #expect(try names(context, nil, sort: [.descending("age")]) == ["Gleb", "Anna", "Vera", "Boris"],
                "nil sorts first ascending, so last descending")
        let byID = try context.fetch(FetchRequest(entityName: "Person")).map(\.objectID.uuid.uuidString)
        #expect(byID == byID.sorted())
    }

    @Test("limit, offset and count")
    func window() throws {
        let (_, context) = try peopleStore()
        var request = FetchRequest(entityName: "Person", sortKeys: [.ascending("firstName")], limit: 2, offset: 1)
        #expect(try context.fetch(request).map { $0["firstName"] } == ["Boris", "Gleb"])
        request.offset = 0
        request.limit = nil
        request.predicate = .equal("lastName", "Ivanov")
        #expect(try context.count(for: request) == 2)
    }

    @Test("objects deleted in the context are left out of fetches; unsaved changes are kept")
    func pendingChanges() throws {
        let (_, context) = try peopleStore()
        let anna = try #require(try context.fetch(FetchRequest(entityName: "Person", predicate: .equal("firstName", "Anna"))).first)
        anna["age"] = 99
        let boris = try #require(try context.fetch(FetchRequest(entityName: "Person", predicate: .equal("firstName", "Boris"))).first)
        try context.delete(boris)
        let fetched = try context.fetch(FetchRequest(entityName: "Person", predicate: .equal("lastName", "Ivanov")))
        #expect(fetched.map(\.objectID) == [anna.objectID])
        #expect(fetched.first?["age"] == 99)
    }

    @Test("unknown keys and values of the wrong type are refused, naming entity and key")
    func invalidRequests() throws {
        let (_, context) = try peopleStore()
        #expect(throws: ContextError.unknownKey(entity: "Person", key: "surname")) {
            try context.fetch(FetchRequest(entityName: "Person", predicate: .equal("surname", "x")))
        }
        #expect(throws: ContextError.predicateTypeMismatch(entity: "Person", key: "age", expected: .integer, found: "string")) {
            try context.fetch(FetchRequest(entityName: "Person", predicate: .equal("age", "thirty")))
        }
        #expect(throws: ContextError.unknownKey(entity: "Person", key: "height")) {
            try context.fetch(FetchRequest(entityName: "Person", sortKeys: [.ascending("height")]))
        }
        #expect(throws: ContextError.unknownEntity("Robot")) { try context.fetch(FetchRequest(entityName: "Robot")) }
        #expect(throws: ContextError.self) { try context.fetch(FetchRequest(entityName: "Person", limit: -1)) }
    }

    @Test("SQL metacharacters in values are data, never SQL")
    func injection() throws {
        let fixture = try StoreFixture()
        let context = fixture.store.newContext()
        let hostile = "'; DROP TABLE Note; --"
        try StoreFixture.insertNote(context, title: hostile)
        try StoreFixture.insertNote(context, title: "Harmless")
        try context.save()
        for predicate: FetchPredicate in [.equal("title", .string(hostile)), .contains("title", hostile),
                                          .contains("title", "'; DROP", caseInsensitive: false),
                                          .oneOf("title", [.string(hostile)])] {
            let compiled = try CompiledFetch(FetchRequest(entityName: "Note", predicate: predicate), model: fixture.store.model)
            #expect(!compiled.condition.contains("DROP"))
            let found = try context.fetch(FetchRequest(entityName: "Note", predicate: predicate))
            #expect(found.map { $0["title"] } == [.string(hostile)])
        }
        #expect(try context.count(for: FetchRequest(entityName: "Note")) == 2)
    }

    @Test("fetchValues reads one attribute in the request's order, as fetch sees the context's changes")
    func fetchValues() throws {
        let (fixture, context) = try peopleStore()
        let byAge = FetchRequest(entityName: "Person", predicate: .notEqual("firstName", "Gleb"), sortKeys: [.descending("age")])
        #expect(try context.fetchValues(of: "firstName", byAge) == ["Anna", "Vera", "Boris"])
        #expect(try context.fetchValues(of: "age", byAge) == [.integer(30), .integer(25), .null])
        var firstTwo = byAge
        firstTwo.limit = 2
        firstTwo.offset = 1
        #expect(try context.fetchValues(of: "firstName", firstTwo) == ["Vera", "Boris"])

        // Unsaved here: Vera renamed, Anna deleted, a new person inserted.
        let people = try context.fetch(FetchRequest(entityName: "Person"))
        let vera = try #require(people.first { $0["firstName"] == "Vera" })
        vera["firstName"] = "Vera Ivanovna"
        try context.delete(try #require(people.first { $0["firstName"] == "Anna" }))
        try StoreFixture.insertPerson(context, "Zoya", "Orlova", age: 19)
        let everyone = FetchRequest(entityName: "Person", sortKeys: [.ascending("lastName"), .ascending("firstName")])
        let fetched = try context.fetch(everyone).map { $0["firstName"] }
        #expect(fetched == ["Boris", "Vera Ivanovna", "Gleb"])
        #expect(try context.fetchValues(of: "firstName", everyone) == fetched)

        // Another context sees the store as saved; a save elsewhere is read, not a stale copy.
        let other = fixture.store.newContext()
        #expect(try other.fetchValues(of: "firstName", everyone) == ["Anna", "Boris", "Vera", "Gleb"])
        try context.save()
        #expect(try other.fetchValues(of: "firstName", everyone) == ["Boris", "Zoya", "Vera Ivanovna", "Gleb"])
    }

    @Test("fetchValues names the key the entity does not have")
    func fetchValuesOfAnUnknownKey() throws {
        let (_, context) = try peopleStore()
        #expect(throws: ContextError.unknownKey(entity: "Person", key: "nickname")) {
            try context.fetchValues(of: "nickname", FetchRequest(entityName: "Person"))
        }
        #expect(throws: ContextError.unknownEntity("Robot")) {
            try context.fetchValues(of: "name", FetchRequest(entityName: "Robot"))
        }
    }
}
