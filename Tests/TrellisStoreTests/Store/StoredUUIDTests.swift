import Foundation
import GRDB
import Testing
import TrellisCore
@testable import TrellisStore

/// Ids and `uuid` values are read straight from SQLite's text (not through Foundation's
/// parser): either case reads, anything that is not a UUID's text is an error naming it.
@Suite("Stored UUIDs")
struct StoredUUIDTests {
    /// A store holding one SyncRecord row with `id` and `localID` as given, written as raw SQL.
    private func store(id: String, localID: String) throws -> PersistentStore {
        let store = try PersistentStore(url: try Fixtures.storeURL(), model: try Fixtures.demoModel())
        try store.write("insert record") { db in
            try db.execute(sql: "INSERT INTO SyncRecord (id, entity, localID, remoteID) VALUES (?, 'Note', ?, '1')",
                           arguments: [id, localID])
        }
        return store
    }

    @Test("ids and uuid values in upper and lower case read as the same UUIDs")
    func eitherCase() throws {
        let (id, localID) = (UUID(), UUID())
        for (idText, localText) in [(id.uuidString, localID.uuidString.lowercased()),
                                    (id.uuidString.lowercased(), localID.uuidString)] {
            let store = try store(id: idText, localID: localText)
            let object = try #require(try store.newContext().fetch(FetchRequest(entityName: "SyncRecord")).first)
            #expect(object.objectID.uuid == id)
            #expect(object["localID"] == .uuid(localID))
            try store.close()
        }
    }

    @Test("a stored id or uuid value that is not a UUID's text is an error naming the entity, object and key",
          arguments: ["not a uuid", "0123456789ABCDEF0123456789ABCDEF0123", "01234567-89AB-CDEF-0123-456789ABCDEG",
                      "01234567-89AB-CDEF-0123+456789ABCDEF", "01234567-89AB-CDEF-0123-456789ABCDEF0", ""])
    func malformed(text: String) throws {
        let badID = try store(id: text, localID: UUID().uuidString)
        #expect(throws: ContextError.invalidStoredID(entity: "SyncRecord", id: text)) {
            try badID.newContext().fetch(FetchRequest(entityName: "SyncRecord"))
        }
        try badID.close()
        let id = UUID()
        let badValue = try store(id: id.uuidString, localID: text)
        #expect(throws: ContextError.invalidStoredValue(object: ObjectID(entityName: "SyncRecord", uuid: id), key: "localID")) {
            try badValue.newContext().fetch(FetchRequest(entityName: "SyncRecord"))
        }
        try badValue.close()
    }
}
