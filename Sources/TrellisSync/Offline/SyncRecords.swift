import Foundation
import TrellisStore

/// What the client knows of each synced object on the server: `SyncRecord` objects in the
/// store, one per local object the server has, holding its server id and the server
/// version the local object is based on.
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

    /// Inserts or updates the record of `localID`.
    func set(local localID: UUID, remoteID: String, version: String?) throws {
        if let existing = try record(local: localID) {
            existing.object["remoteID"] = .string(remoteID)
            existing.object["version"] = version.map(AttributeValue.string) ?? .null
        } else {
            try context.insert(Self.entityName, values: [
                "entity": .string(entityName), "localID": .uuid(localID), "remoteID": .string(remoteID),
                "version": version.map(AttributeValue.string) ?? .null,
            ])
        }
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
