import Foundation
import TrellisCore
import TrellisStore

/// What the client knows of each synced object on the server: `SyncRecord` objects in the
/// store, one per local object the server has, holding its server id, the server version
/// and the **base** — the synced attributes as the server last held them, as far as this
/// client knows — which tells a change made on the server from one made here when the
/// server keeps no versions.
///
/// Records live apart from the synced objects so that a local deletion keeps the server
/// id until the deletion is pushed.
struct SyncRecords {
    static let entityName = "SyncRecord"

    /// One record, read from its store object.
    struct Record {
        let object: ManagedObject
        let localID: UUID
        let remoteID: String
        var version: String? { object["version"].stringValue }
        /// The client id the resource carries (the creating client's object id), if known.
        var clientID: String? { object["clientID"].stringValue }
        /// The synced attributes as the server last held them (in their wire form).
        var base: [String: JSONValue]? { object["base"].jsonValue?.objectValue }
        /// Whether a pull of an earlier pass than the one that created the resource listed
        /// it: only then is the server known to have kept it.
        var isListed: Bool { object["listed"].boolValue ?? false }

        /// Records what the server holds now.
        func update(version: String?, base: [String: JSONValue]) {
            object["version"] = version.map(AttributeValue.string) ?? .null
            object["base"] = .json(.object(base))
        }

        func markListed() {
            if !isListed { object["listed"] = .bool(true) }
        }
    }

    let entityName: String
    let context: ManagedObjectContext

    /// The record of local object `localID`.
    func record(local localID: UUID) throws -> Record? {
        try fetch(.equal("localID", .uuid(localID))).first
    }

    /// Every record of the entity.
    func all() throws -> [Record] {
        try fetch(.equal("entity", .string(entityName)))
    }

    /// Inserts or replaces the record of `localID`.
    @discardableResult
    func set(local localID: UUID, remoteID: String, version: String?, base: [String: JSONValue], clientID: String?,
             listed: Bool) throws -> Record
    {
        let values: [String: AttributeValue] = [
            "remoteID": .string(remoteID), "version": version.map(AttributeValue.string) ?? .null,
            "base": .json(.object(base)), "clientID": clientID.map(AttributeValue.string) ?? .null,
            "listed": .bool(listed),
        ]
        let object: ManagedObject
        if let existing = try record(local: localID) {
            object = existing.object
            for (key, value) in values { object[key] = value }
        } else {
            object = try context.insert(Self.entityName, values: values.merging([
                "entity": .string(entityName), "localID": .uuid(localID),
            ]) { old, _ in old })
        }
        return Record(object: object, localID: localID, remoteID: remoteID)
    }

    /// Points `record` at another local object (one re-created from the server).
    func relink(_ record: Record, to localID: UUID) {
        record.object["localID"] = .uuid(localID)
    }

    private func fetch(_ predicate: FetchPredicate) throws -> [Record] {
        try context.fetch(FetchRequest(entityName: Self.entityName, predicate: predicate)).compactMap { object in
            guard let localID = object["localID"].uuidValue, let remoteID = object["remoteID"].stringValue else {
                return nil
            }
            return Record(object: object, localID: localID, remoteID: remoteID)
        }
    }
}
