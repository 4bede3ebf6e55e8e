import Foundation
import TrellisCore
import TrellisStore

/// Queuing changes saved without ``EntitySync/save(_:)``: from the store's `store:did-save`
/// while the sync lives, and objects the server never saw at the start of every pass.
extension EntitySync {
    /// Queues a creation for every object of the entity that has neither a server record
    /// nor a queued change: objects saved before a server was configured, or whose
    /// `store:did-save` was missed (no bus, a crash right after the save). Keeps whether every
    /// record's object is there (see ``hasLocalObject(_:)``) for the pull. Reads only the
    /// records' local ids (the pull reads the records when a list has something new); with up
    /// to 30,000 notes both questions are asked of SQLite (`id IN`, and `id NOT IN` only when
    /// the objects outnumber the known ones present), not by reading every note.
    func adoptUnsyncedObjects() throws {
        let synced = try records.localIDs()
        let known = synced.union(try outbox.entries().map(\.localID))
        let strays: [ManagedObject]
        if known.count <= 30_000 {
            let present = synced.isEmpty ? 0 : try count(among: synced)
            localIDsThisPass = present == synced.count ? nil : Set(try context.fetch(FetchRequest(entityName: entity.name))
                .map(\.objectID.uuid))
            // Every object is known when the known ones present are all there are (the usual
            // pass): then the objects outside them need not be looked for.
            let queuedOnly = known.subtracting(synced)
            let knownPresent = present + (queuedOnly.isEmpty ? 0 : try count(among: queuedOnly))
            strays = try context.count(for: FetchRequest(entityName: entity.name)) == knownPresent ? []
                : try context.fetch(FetchRequest(entityName: entity.name,
                                                 predicate: .not(.oneOf("id", known.map(AttributeValue.uuid)))))
        } else {
            let objects = try context.fetch(FetchRequest(entityName: entity.name))
            localIDsThisPass = Set(objects.map(\.objectID.uuid))
            strays = objects.filter { !known.contains($0.objectID.uuid) }
        }
        guard !strays.isEmpty else { return }
        var sequence = try outbox.nextSequence()
        for object in strays {
            try outbox.enqueue(.create, localID: object.objectID.uuid, payload: mapping.attributes(of: object),
                               sequence: sequence)
            sequence += 1
        }
        try context.save()
        logger.info("queued objects the server has never seen", metadata: ["count": "\(strays.count)"])
    }

    /// How many of the objects with `ids` are in the store.
    private func count(among ids: Set<UUID>) throws -> Int {
        try context.count(for: FetchRequest(entityName: entity.name, predicate: .oneOf("id", ids.map(AttributeValue.uuid))))
    }

    /// Whether a record's object (`localID`) was in the store at the start of the pass.
    func hasLocalObject(_ localID: UUID) -> Bool {
        localIDsThisPass?.contains(localID) ?? true
    }

    /// Watches the store's saves on the bus (the store must have been opened with it).
    /// The event is handled on the main actor after the save, wherever the save ran.
    func watchForeignSaves() {
        bus?.watchOnMainActor(PersistentStore.didSave, from: store, owner: self) { sync, event in
            sync.storeDidSave(event.data)
        }
    }

    /// Queues the synced entity's objects a save changed, unless the save touched the sync
    /// entities (then it was the sync's own, or came through ``EntitySync/save(_:)``, which
    /// queued its changes in the same transaction) or left an object as the server holds it.
    private func storeDidSave(_ changes: JSONValue) {
        let syncEntities = [Outbox.entityName, SyncRecords.entityName, ServerProfile.entityName, SyncTrash.entityName,
                            SyncConflicts.entityName]
        for kind in ["inserted", "updated", "deleted"] {
            if syncEntities.contains(where: { changes[kind]?[$0] != nil }) { return }
        }
        func ids(_ kind: String) -> [UUID] {
            changes[kind]?[mapping.entityName]?.arrayValue?.compactMap { $0.stringValue.flatMap(UUID.init) } ?? []
        }
        let (inserted, updated, deleted) = (ids("inserted"), ids("updated"), ids("deleted"))
        guard !(inserted.isEmpty && updated.isEmpty && deleted.isEmpty) else { return }
        do {
            // A background save is seen late: a pass may have adopted its insertions already.
            // An object inserted again with the id of a deletion still queued (an undone
            // delete) is created again after it.
            let queued = Dictionary(try outbox.entries().map { ($0.localID, $0.operation) }, uniquingKeysWith: { _, last in last })
            let known = Set(queued.keys).union(try records.all().map(\.localID))
            var sequence = try outbox.nextSequence()
            for (operation, localIDs) in [(Outbox.Operation.create, inserted), (.update, updated), (.delete, deleted)] {
                for localID in localIDs where operation != .create || !known.contains(localID) || queued[localID] == .delete {
                    var payload: [String: JSONValue]?
                    if operation != .delete {
                        // Changed again or deleted since: a later save queues that.
                        guard let object = try object(localID) else { continue }
                        if operation == .update, try !needsPush(object) { continue }
                        payload = mapping.attributes(of: object)
                    }
                    try outbox.enqueue(operation, localID: localID, payload: payload, sequence: sequence)
                    sequence += 1
                }
            }
            try context.save()
            wake?.yield()
        } catch {
            context.rollback()
            logger.error("cannot queue changes saved outside the sync", metadata: ["error": "\(error)"])
        }
    }
}
