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
    /// Changes the server acknowledged and then lost (it went back to the state they
    /// replaced: a crash before its disk, a backup restored), queued to be written again.
    public var rewritten = 0
    /// Notes a list left out that the server still has (each read to confirm it): kept.
    public var unlisted = 0
    /// List items missing synced members (a summary list), read whole to be merged.
    public var readWhole = 0
    /// A list that would have taken out more than a small share of the notes at once: nothing
    /// was taken out; the user decides (``EntitySync/acceptMissing()``,
    /// ``EntitySync/sendMissingAgain()``).
    public var suspectList: SuspectList?
    /// Changes the server refused (another 4xx, an answer of the wrong shape): each stays
    /// queued with its error, and the pass went on with the other notes.
    public var refusals: [SyncError] = []
    /// Local edits the server's state won over, each kept as a copy.
    public var conflicts: [SyncConflict] = []
    /// Server ids of resources that could not be read into the store (wrong types,
    /// missing required attributes); they are left alone.
    public var skipped: [String] = []
    /// The list was as the last pass that took one in whole left it — a `304` to
    /// `If-None-Match`, or, from a server without `ETag`s, the same bytes in a pass that wrote
    /// nothing: nothing was compared.
    public var listUnchanged = false
    /// Changes still queued after the pass.
    public var pending = 0
    /// Why the pass stopped early (the server unreachable, an HTTP error...); `nil` when it
    /// pushed everything and pulled.
    public var failure: SyncError?
    /// The store error that ended the pass (`syncNow()` threw it), for the `sync:finished`
    /// event.
    public var storeFailure: String?

    /// An empty report.
    public init() {}

    /// The report as the data of the `sync:finished` event.
    public var json: JSONValue {
        [
            "pushed": .number(Double(pushed)), "resolved": .number(Double(resolved)),
            "inserted": .number(Double(inserted)), "updated": .number(Double(updated)),
            "trashed": .number(Double(trashed)), "recreated": .number(Double(recreated)),
            "duplicates": .number(Double(duplicates)), "conflicts": .array(conflicts.map(\.json)),
            "rewritten": .number(Double(rewritten)), "unlisted": .number(Double(unlisted)),
            "readWhole": .number(Double(readWhole)), "suspectList": suspectList?.json ?? .null,
            "refusals": .array(refusals.map { .string($0.description) }),
            "skipped": .array(skipped.map(JSONValue.string)), "pending": .number(Double(pending)),
            "failure": failure.map { .string($0.description) } ?? storeFailure.map(JSONValue.string) ?? .null,
            "offline": .bool(failure?.isOffline ?? false),
        ]
    }
}

/// A list that left out more than a small share of the notes at once (more than 3, and more
/// than a tenth): the sync took nothing out, and says so.
public struct SuspectList: Sendable, Equatable {
    /// How many notes the list left out.
    public let missing: Int
    /// How many notes the server was known to hold.
    public let known: Int

    public init(missing: Int, known: Int) {
        self.missing = missing
        self.known = known
    }

    var json: JSONValue { ["missing": .number(Double(missing)), "known": .number(Double(known))] }
}

/// A local change the server's state won over, or a deletion on one side of a note changed
/// on the other. Nothing is dropped: see ``kind``.
public struct SyncConflict: Sendable, Equatable {
    /// What met what.
    public enum Kind: String, Sendable {
        /// The server's resource had changed since the state the local change was based on
        /// (a 412, a different state read before writing, or a state other than an
        /// acknowledged write of this client's): the object took the server's state, the
        /// local version lives on in ``copy``.
        case edited
        /// Deleted here, changed on the server: the object is back, with the server's state.
        case deletedHere
        /// Deleted on the server (or lost by it), changed here: the local version was created
        /// on the server again.
        case deletedOnServer
    }

    /// The local object: holding the server's state (``Kind/edited``, ``Kind/deletedHere``),
    /// or the local version created again (``Kind/deletedOnServer``).
    public let original: ObjectID
    /// The copy holding the rejected edit (queued for the server as a new resource); `nil`
    /// for the deletions.
    public let copy: ObjectID?
    /// When the conflict was found.
    public let detected: Date
    public let kind: Kind

    /// A conflict between `original` and the `copy` of its rejected edit.
    public init(original: ObjectID, copy: ObjectID?, detected: Date = Date(), kind: Kind? = nil) {
        self.original = original
        self.copy = copy
        self.detected = detected
        self.kind = kind ?? (copy == nil ? .deletedHere : .edited)
    }

    var json: JSONValue {
        ["original": .string(original.description), "copy": copy.map { .string($0.description) } ?? .null,
         "kind": .string(kind.rawValue)]
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
                                detected: detected, kind: entry["kind"].stringValue.flatMap(SyncConflict.Kind.init))
        }
    }

    /// Records `conflict` in the context (saved by the caller).
    func add(_ conflict: SyncConflict) throws {
        try context.insert(Self.entityName, values: [
            "entity": .string(entityName), "original": .uuid(conflict.original.uuid),
            "copy": conflict.copy.map { .uuid($0.uuid) } ?? .null, "detected": .date(conflict.detected),
            "kind": .string(conflict.kind.rawValue),
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
