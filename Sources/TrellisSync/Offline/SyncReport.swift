import TrellisCore
import TrellisStore

/// What one pass of ``EntitySync/syncNow()`` did.
public struct SyncReport: Sendable, Equatable {
    /// Queued changes the server accepted.
    public var pushed = 0
    /// Objects created locally from new server resources.
    public var inserted = 0
    /// Local objects updated from changed server resources.
    public var updated = 0
    /// Local objects deleted because the server no longer has them.
    public var deleted = 0
    /// Local edits the server rejected for a newer version, each kept as a copy.
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
            "pushed": .number(Double(pushed)), "inserted": .number(Double(inserted)),
            "updated": .number(Double(updated)), "deleted": .number(Double(deleted)),
            "conflicts": .array(conflicts.map(\.json)), "skipped": .array(skipped.map(JSONValue.string)),
            "pending": .number(Double(pending)), "failure": failure.map { .string($0.description) } ?? .null,
        ]
    }
}

/// A local edit the server rejected because the resource had changed since the version
/// the edit was based on. The server's state won; the edit lives on in ``copy``.
public struct SyncConflict: Sendable, Equatable {
    /// The local object, now holding the server's state.
    public let original: ObjectID
    /// The copy holding the rejected edit (queued for the server as a new resource), or
    /// `nil` when the rejected change was a deletion (the object is restored instead).
    public let copy: ObjectID?

    /// A conflict between `original` and the `copy` of its rejected edit.
    public init(original: ObjectID, copy: ObjectID?) {
        self.original = original
        self.copy = copy
    }

    var json: JSONValue {
        ["original": .string(original.description), "copy": copy.map { .string($0.description) } ?? .null]
    }
}
