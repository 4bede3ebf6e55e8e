import Foundation
import TrellisCore
import TrellisStore

/// An object a pull took out of the store because the server no longer has it, kept whole
/// in the Trash (`SyncTrashEntry`) until the user restores it or discards it: a pull never
/// destroys what the user typed.
public struct TrashedObject: Sendable, Equatable, Identifiable {
    /// The object's id, which it gets back when restored.
    public let id: UUID
    /// Every attribute of the object when it was trashed, as JSON (relationships are not kept).
    public let values: [String: JSONValue]
    /// The server id it had.
    public let remoteID: String?
    /// When it was trashed.
    public let trashed: Date
    /// Why, for people: "deleted on the server".
    public let reason: String

    /// The value of attribute `key`, as JSON.
    public subscript(key: String) -> JSONValue? { values[key] }
}

/// The Trash's store objects for one entity.
struct SyncTrash {
    static let entityName = "SyncTrashEntry"

    let entityName: String
    let context: ManagedObjectContext

    /// The trashed objects, most recent first.
    func all() throws -> [TrashedObject] {
        try entries().compactMap(Self.trashedObject)
    }

    /// The entry of trashed object `id`.
    func entry(_ id: UUID) throws -> ManagedObject? {
        try context.fetch(FetchRequest(entityName: Self.entityName, predicate: .equal("localID", .uuid(id)),
                                       limit: 1)).first
    }

    /// Moves `object` to the Trash: an entry with all its values is inserted and the object
    /// deleted, in the context (saved by the caller).
    func add(_ object: ManagedObject, remoteID: String?, clientID: String?, reason: String) throws {
        let values = object.dictionary.mapValues(\.json)
        if let stale = try entry(object.objectID.uuid) { try context.delete(stale) }
        try context.insert(Self.entityName, values: [
            "entity": .string(entityName), "localID": .uuid(object.objectID.uuid),
            "remoteID": remoteID.map(AttributeValue.string) ?? .null, "values": .json(.object(values)),
            "trashed": .date(Date()), "reason": .string(reason), "clientID": clientID.map(AttributeValue.string) ?? .null,
        ])
        try context.delete(object)
    }

    private func entries() throws -> [ManagedObject] {
        try context.fetch(FetchRequest(entityName: Self.entityName, predicate: .equal("entity", .string(entityName)),
                                       sortKeys: [.descending("trashed")]))
    }

    static func trashedObject(_ entry: ManagedObject) -> TrashedObject? {
        guard let id = entry["localID"].uuidValue, let values = entry["values"].jsonValue?.objectValue,
              let trashed = entry["trashed"].dateValue
        else { return nil }
        return TrashedObject(id: id, values: values, remoteID: entry["remoteID"].stringValue, trashed: trashed,
                             reason: entry["reason"].stringValue ?? "")
    }
}
