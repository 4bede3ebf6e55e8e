import Foundation
import TrellisCore
import TrellisStore

/// What one pass of ``EntitySync/syncNow()`` did.
public struct SyncReport: Sendable, Equatable {
    /// Queued changes the server accepted.
    public var pushed = 0
    /// Creates whose answer had been lost, found on the server (so not sent again).
    public var resolved = 0
    /// Objects created locally from new server resources.
    public var inserted = 0
    /// Local objects updated from changed server resources.
    public var updated = 0
    /// Local objects moved to the Trash because the server deleted them.
    public var trashed = 0
    /// Local objects the server had lost (an acknowledged create it did not keep), queued
    /// to be created again.
    public var recreated = 0
    /// Resources found twice on the server for one create, queued for deletion.
    public var duplicates = 0
    /// Local edits the server's state won over, each kept as a copy.
    public var conflicts: [SyncConflict] = []
    /// Server ids of resources that could not be read into the store (wrong types,
    /// missing required attributes); they are left alone.
    public var skipped: [String] = []
    /// Changes still queued after the pass.
    public var pending = 0
    /// Why the pass stopped early (the server unreachable, an HTTP error...); `nil` when it
    /// pushed everything and pulled.
    public var failure: SyncError?

    /// An empty report.
    public init() {}

    /// The report as the data of the `sync:finished` event.
    public var json: JSONValue {
        [
            "pushed": .number(Double(pushed)), "resolved": .number(Double(resolved)),
            "inserted": .number(Double(inserted)), "updated": .number(Double(updated)),
            "trashed": .number(Double(trashed)), "recreated": .number(Double(recreated)),
            "duplicates": .number(Double(duplicates)), "conflicts": .array(conflicts.map(\.json)),
            "skipped": .array(skipped.map(JSONValue.string)), "pending": .number(Double(pending)),
            "failure": failure.map { .string($0.description) } ?? .null,
            "offline": .bool(failure?.isOffline ?? false),
        ]
    }
}

/// A local change the server's state won over: the server's resource had changed since the
/// state the change was based on (a 412 answer, or a different state read before writing).
/// The local object took the server's state; the change lives on in ``copy``.
public struct SyncConflict: Sendable, Equatable {
    /// The local object, now holding the server's state.
    public let original: ObjectID
    /// The copy holding the rejected edit (queued for the server as a new resource), or
    /// `nil` when the rejected change was a deletion (the object is restored instead).
    public let copy: ObjectID?
    /// When the conflict was found.
    public let detected: Date

    /// A conflict between `original` and the `copy` of its rejected edit.
    public init(original: ObjectID, copy: ObjectID?, detected: Date = Date()) {
        self.original = original
        self.copy = copy
        self.detected = detected
    }

    var json: JSONValue {
        ["original": .string(original.description), "copy": copy.map { .string($0.description) } ?? .null]
    }
}

/// The conflicts kept for the user (`SyncConflictEntry`) until dismissed.
struct SyncConflicts {
    static let entityName = "SyncConflictEntry"

    let entityName: String
    let context: ManagedObjectContext

    /// The conflicts not dismissed, most recent first.
    func all() throws -> [SyncConflict] {
        try entries().compactMap { entry in
            guard let original = entry["original"].uuidValue, let detected = entry["detected"].dateValue else {
                return nil
            }
            return SyncConflict(original: ObjectID(entityName: entityName, uuid: original),
                                copy: entry["copy"].uuidValue.map { ObjectID(entityName: entityName, uuid: $0) },
                                detected: detected)
        }
    }

    /// Records `conflict` in the context (saved by the caller).
    func add(_ conflict: SyncConflict) throws {
        try context.insert(Self.entityName, values: [
            "entity": .string(entityName), "original": .uuid(conflict.original.uuid),
            "copy": conflict.copy.map { .uuid($0.uuid) } ?? .null, "detected": .date(conflict.detected),
        ])
    }

    /// Forgets the conflicts of `original` (saved by the caller).
    func remove(original: UUID) throws {
        for entry in try entries() where entry["original"].uuidValue == original { try context.delete(entry) }
    }

    private func entries() throws -> [ManagedObject] {
        try context.fetch(FetchRequest(entityName: Self.entityName, predicate: .equal("entity", .string(entityName)),
                                       sortKeys: [.descending("detected")]))
    }
}
