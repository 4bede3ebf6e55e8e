import Foundation
import TrellisCore
import TrellisStore

/// The durable queue of local changes waiting for the server: `SyncOutboxEntry` objects
/// in the store, pushed in `sequence` order.
///
/// An entry is written in the same transaction as the change it describes (see
/// ``EntitySync/save(_:)``), and removed in the same transaction as the result of pushing
/// it, so a crash or a restart at any point leaves either the change queued or its result
/// recorded.
struct Outbox {
    static let entityName = "SyncOutboxEntry"

    /// What an entry asks of the server.
    enum Operation: String {
        /// The object was inserted: create it on the server (see ``EntitySync``'s
        /// "Creating without duplicates").
        case create
        /// The object's synced attributes changed: PUT them (create the object when the
        /// server does not have it).
        case update
        /// The object was deleted: DELETE it on the server.
        case delete
    }

    /// One queued change, read from its store object.
    struct Entry {
        let object: ManagedObject
        let sequence: Int
        let localID: UUID
        let operation: Operation
        /// The synced attributes at the time of the change (none for a deletion).
        let payload: [String: JSONValue]
        /// Whether a create was sent without its outcome being known (no answer, a lost
        /// connection, a server error): before it is sent again, the server is asked
        /// whether it happened.
        var wasSent: Bool { object["sent"].boolValue ?? false }
        /// The client id a create is made with: the object's own (its id), or the one of the
        /// resource it makes again (a note created elsewhere and lost by the server), so that
        /// clients making one note again make it once.
        var clientID: String { object["clientID"].stringValue ?? EntitySync.clientID(of: localID) }
        /// Whether a create only makes again what the server had (a note it lost, nothing of
        /// it typed here since): found on the server, it takes the server's state.
        var isPristine: Bool { object["pristine"].boolValue ?? false }

        init(_ object: ManagedObject) throws {
            self.object = object
            sequence = try object.get("sequence")
            localID = try object.get("localID")
            let operationName: String = try object.get("operation")
            guard let operation = Operation(rawValue: operationName) else {
                throw ContextError.typeMismatch(object: object.objectID, key: "operation",
                                                expected: "create, update or delete", found: operationName)
            }
            self.operation = operation
            payload = object["payload"].jsonValue?.objectValue ?? [:]
        }
    }

    /// The synced entity whose entries this outbox reads and writes.
    let entityName: String
    let context: ManagedObjectContext

    /// The entity's entries, oldest first.
    func entries() throws -> [Entry] {
        try context.fetch(FetchRequest(entityName: Self.entityName, predicate: .equal("entity", .string(entityName)),
                                       sortKeys: [.ascending("sequence")])).map(Entry.init)
    }

    /// The oldest entry, if any.
    func first() throws -> Entry? {
        try context.fetch(FetchRequest(entityName: Self.entityName, predicate: .equal("entity", .string(entityName)),
                                       sortKeys: [.ascending("sequence")], limit: 1)).first.map(Entry.init)
    }

    /// The oldest entry of an object not in `held`, if any.
    func first(excluding held: Set<UUID>) throws -> Entry? {
        guard !held.isEmpty else { return try first() }
        let predicate = FetchPredicate.and([.equal("entity", .string(entityName)),
                                            .not(.oneOf("localID", held.map(AttributeValue.uuid)))])
        return try context.fetch(FetchRequest(entityName: Self.entityName, predicate: predicate,
                                              sortKeys: [.ascending("sequence")], limit: 1)).first.map(Entry.init)
    }

    /// How many entries wait.
    func count() throws -> Int {
        try context.count(for: FetchRequest(entityName: Self.entityName, predicate: .equal("entity", .string(entityName))))
    }

    /// The sequence number after every saved entry (of any entity).
    func nextSequence() throws -> Int {
        let last = try context.fetch(FetchRequest(entityName: Self.entityName, sortKeys: [.descending("sequence")],
                                                  limit: 1)).first
        return (last?["sequence"].intValue ?? 0) + 1
    }

    /// Inserts an entry into the context (saved with the context's next save).
    @discardableResult
    func enqueue(_ operation: Operation, localID: UUID, payload: [String: JSONValue]?, sequence: Int,
                 clientID: String? = nil, pristine: Bool = false) throws -> ManagedObject
    {
        try context.insert(Self.entityName, values: [
            "sequence": .integer(sequence), "entity": .string(entityName), "localID": .uuid(localID),
            "operation": .string(operation.rawValue), "payload": payload.map { .json(.object($0)) } ?? .null,
            "clientID": clientID.map(AttributeValue.string) ?? .null, "pristine": .bool(pristine),
        ])
    }

    /// Marks the entry as sent or not (saved by the caller).
    func setSent(_ entry: Entry, _ sent: Bool) {
        entry.object["sent"] = .bool(sent)
    }

    /// The entries as the public ``QueuedChange``s.
    func queuedChanges() throws -> [QueuedChange] {
        try entries().map { entry in
            QueuedChange(operation: QueuedChange.Operation(rawValue: entry.operation.rawValue) ?? .update,
                         object: ObjectID(entityName: entityName, uuid: entry.localID), attributes: entry.payload,
                         attempts: entry.object["attempts"].intValue ?? 0, lastError: entry.object["lastError"].stringValue,
                         awaitsOutcome: entry.wasSent)
        }
    }

    /// Notes a failed push on the entry: one more attempt, and the error (saved by the caller).
    func recordFailure(_ entry: Entry, error: SyncError) {
        entry.object["attempts"] = .integer((entry.object["attempts"].intValue ?? 0) + 1)
        entry.object["lastError"] = .string(error.description)
    }
}

/// A local change waiting for the server (an entry of the outbox), as `trellis sync` lists it.
public struct QueuedChange: Sendable, Equatable {
    /// What the change asks of the server.
    public enum Operation: String, Sendable {
        case create, update, delete
    }

    public let operation: Operation
    /// The changed object.
    public let object: ObjectID
    /// The synced attributes sent with it (none for a deletion).
    public let attributes: [String: JSONValue]
    /// How many pushes of it failed.
    public let attempts: Int
    /// Why the last push failed.
    public let lastError: String?
    /// Whether it is a create sent without its outcome being known: the next pass asks the
    /// server whether it happened before sending it again.
    public let awaitsOutcome: Bool
}
