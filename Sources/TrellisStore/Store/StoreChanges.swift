import TrellisCore

/// The objects one or more saves inserted, updated and deleted, by entity. Deletions and
/// updates made by delete rules (cascade, nullify) are included.
public struct StoreChanges: Sendable, Equatable {
    /// The ids of inserted objects, by entity name.
    public internal(set) var inserted: [String: [ObjectID]] = [:]
    /// The ids of updated objects (also those nullified by a delete rule), by entity name.
    public internal(set) var updated: [String: [ObjectID]] = [:]
    /// The ids of deleted objects (also those cascaded by a delete rule), by entity name.
    public internal(set) var deleted: [String: [ObjectID]] = [:]

    /// No changes.
    public init() {}

    /// Nothing was inserted, updated or deleted.
    public var isEmpty: Bool { inserted.isEmpty && updated.isEmpty && deleted.isEmpty }

    /// Every changed object of `entity`, whatever the kind of change.
    public func changedIDs(of entity: String) -> Set<ObjectID> {
        Set((inserted[entity] ?? []) + (updated[entity] ?? []) + (deleted[entity] ?? []))
    }

    /// The payload of the `store:did-save` event:
    /// `{"inserted": {"Note": ["<uuid>"]}, "updated": {}, "deleted": {}}`.
    public var json: JSONValue {
        func group(_ ids: [String: [ObjectID]]) -> JSONValue {
            .object(ids.mapValues { .array($0.map { .string($0.uuid.uuidString) }) })
        }
        return ["inserted": group(inserted), "updated": group(updated), "deleted": group(deleted)]
    }

    mutating func insert(_ id: ObjectID) { inserted[id.entityName, default: []].append(id) }
    mutating func update(_ id: ObjectID) { updated[id.entityName, default: []].append(id) }
    mutating func delete(_ id: ObjectID) { deleted[id.entityName, default: []].append(id) }

    /// Adds the changes of a later save.
    mutating func merge(_ other: StoreChanges) {
        inserted.merge(other.inserted, uniquingKeysWith: +)
        updated.merge(other.updated, uniquingKeysWith: +)
        deleted.merge(other.deleted, uniquingKeysWith: +)
    }
}
