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
        /// The synced attributes as the server last held them (in their wire form): what it
        /// listed, or what it acknowledged a write of.
        var base: [String: JSONValue]? { object["base"].jsonValue?.objectValue }
        /// Whether the server is known to have kept the base: a pull of a later pass than the
        /// write that made it listed it (a pull of the same pass may show what a server holds
        /// only in memory). A record whose base comes from a pull is confirmed at once.
        var isListed: Bool { object["listed"].boolValue ?? false }
        /// Whether a list showed the server holding the base since it was written (a pull of
        /// the same pass counts here): a note this client wrote that the server no longer has
        /// was then seen by other clients too, and may have been deleted by one.
        var wasSeen: Bool { isListed || object["seen"].boolValue == true }
        /// The state an acknowledged write of this client replaced: a server that shows it
        /// again has lost the write (a crash before it reached the disk, a backup restored).
        var previous: [String: JSONValue]? { object["previous"].jsonValue?.objectValue }
        /// How many times in a row the server lost this object's acknowledged write.
        var lostWrites: Int { object["lostWrites"].intValue ?? 0 }
        /// Whether the resource was created after an attempt whose outcome was unknown: a
        /// second resource with the same content may be that attempt, arrived late.
        var isUncertainCreate: Bool { object["uncertain"].boolValue ?? false }

        /// The server acknowledged writing `written`: it becomes the base, the state it
        /// replaced is kept as ``previous``, and the write waits for a later pull to confirm it.
        func acknowledge(version: String?, written: [String: JSONValue]) {
            if let base, base != written { object["previous"] = .json(.object(base)) }
            object["version"] = version.map(AttributeValue.string) ?? .null
            object["base"] = .json(.object(written))
            object["listed"] = .bool(false)
            object["seen"] = .bool(false)
        }

        /// The server was seen holding `served` (a list, a read): it becomes the base, confirmed.
        func take(version: String?, served: [String: JSONValue]) {
            object["version"] = version.map(AttributeValue.string) ?? .null
            object["base"] = .json(.object(served))
            object["previous"] = .null
            object["listed"] = .bool(true)
            object["lostWrites"] = .integer(0)
        }

        /// A pull of a later pass shows the server holding the base.
        func confirm() {
            object["listed"] = .bool(true)
            object["lostWrites"] = .integer(0)
        }

        /// A list shows the server holding the base (in the pass that wrote it, too).
        func markSeen() {
            if object["seen"].boolValue != true { object["seen"] = .bool(true) }
        }

        /// The server went back to `served`, losing the acknowledged write: `served` becomes
        /// the base (the write is sent again on top of it), and the loss is counted.
        func lost(version: String?, served: [String: JSONValue]) {
            let count = lostWrites + 1
            take(version: version, served: served)
            object["lostWrites"] = .integer(count)
        }

        /// Whether `served`, a state other than the base, may have been built on this
        /// client's last acknowledged write: it keeps every member the write changed (a later
        /// edit of such a member counts). False means the server went back on the write (a
        /// backup restored after a later pull saw the write kept).
        func holdsOwnWrite(_ served: [String: JSONValue], mapping: SyncMapping) -> Bool {
            guard let base, let previous else { return true }
            return mapping.keys.allSatisfy { key in base[key] == previous[key] || served[key] != previous[key] }
        }

        func setVersion(_ version: String?) {
            object["version"] = version.map(AttributeValue.string) ?? .null
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

    /// The record of the resource with server id `remoteID`.
    func record(remote remoteID: String) throws -> Record? {
        try fetch(.and([.equal("entity", .string(entityName)), .equal("remoteID", .string(remoteID))])).first
    }

    /// Every record of the entity, by server id (the order of the index on entity and server
    /// id, which then reads them without sorting).
    func all() throws -> [Record] {
        try fetch(.equal("entity", .string(entityName)), sortKeys: [.ascending("remoteID")])
    }

    /// The local ids of every record of the entity, read without the records (their bases
    /// are JSON to parse: a pass with nothing to do needs only these).
    func localIDs() throws -> Set<UUID> {
        let request = FetchRequest(entityName: Self.entityName, predicate: .equal("entity", .string(entityName)))
        return Set(try context.fetchValues(of: "localID", request).compactMap(\.uuidValue))
    }

    /// Inserts or replaces the record of `localID` (`isNew`: an object just inserted, which
    /// has none to look up).
    @discardableResult
    func set(local localID: UUID, remoteID: String, version: String?, base: [String: JSONValue], clientID: String?,
             listed: Bool, uncertain: Bool = false, isNew: Bool = false) throws -> Record
    {
        let values: [String: AttributeValue] = [
            "remoteID": .string(remoteID), "version": version.map(AttributeValue.string) ?? .null,
            "base": .json(.object(base)), "clientID": clientID.map(AttributeValue.string) ?? .null,
            "listed": .bool(listed), "previous": .null, "lostWrites": .integer(0), "uncertain": .bool(uncertain),
            "seen": .bool(listed),
        ]
        let object: ManagedObject
        if !isNew, let existing = try record(local: localID) {
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

    /// Points `record` at the resource its object's create made again under id `remoteID`.
    func relink(_ record: Record, toRemoteID remoteID: String) -> Record {
        record.object["remoteID"] = .string(remoteID)
        return Record(object: record.object, localID: record.localID, remoteID: remoteID)
    }

    private func fetch(_ predicate: FetchPredicate, sortKeys: [SortKey] = []) throws -> [Record] {
        try context.fetch(FetchRequest(entityName: Self.entityName, predicate: predicate, sortKeys: sortKeys)).compactMap { object in
            guard let localID = object["localID"].uuidValue, let remoteID = object["remoteID"].stringValue else {
                return nil
            }
            return Record(object: object, localID: localID, remoteID: remoteID)
        }
    }
}
