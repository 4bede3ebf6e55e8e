import Foundation
import TrellisCore
import TrellisStore

/// The conflict rule (see ``EntitySync``): the server's state wins, the local edit lives on
/// as a copy.
extension EntitySync {
    /// The local object takes the server's state (or is restored with it, when it was
    /// deleted here); when `keepingLocalEdit`, the object's latest local values become a
    /// conflict copy, a new object queued for the server as a new resource. `dropping` (the
    /// object's queued entries, whose content is in the copy) leave the queue. The conflict
    /// is kept for the user and announced; the caller saves.
    func keepServerState(_ serverValues: [String: AttributeValue], version: String?, record: SyncRecords.Record,
                         keepingLocalEdit: Bool, dropping entries: [Outbox.Entry]) throws -> SyncConflict
    {
        var copyID: ObjectID?
        let original: ManagedObject
        if let local = try object(record.localID) {
            if keepingLocalEdit {
                let copy = try context.insert(entity.name, values: mapping.conflictCopy(local.dictionary))
                try outbox.enqueue(.create, localID: copy.objectID.uuid, payload: mapping.attributes(of: copy),
                                   sequence: try outbox.nextSequence())
                copyID = copy.objectID
            }
            original = local
        } else {
            original = try context.insert(entity.name)
            records.relink(record, to: original.objectID.uuid)
        }
        for (key, value) in serverValues { try original.setValue(value, forKey: key) }
        record.take(version: version, served: mapping.attributes(of: original))
        for entry in entries { try context.delete(entry.object) }
        return try announce(SyncConflict(original: original.objectID, copy: copyID))
    }

    /// Keeps `conflict` for the user and announces it (`sync:conflict`).
    func announce(_ conflict: SyncConflict) throws -> SyncConflict {
        try conflictLog.add(conflict)
        logger.notice("sync conflict", metadata: ["object": "\(conflict.original)", "kind": "\(conflict.kind.rawValue)",
                                                  "copy": "\(conflict.copy?.description ?? "none")"])
        bus?.trigger(Events.conflict, conflict.json, from: self)
        return conflict
    }

    /// A note changed here that the server no longer has (deleted on another device, or lost
    /// by the server): its local version is queued to be created again, and the conflict is
    /// kept so that the user sees the deletion was not taken. The caller saves.
    func createAgainAfterDeletion(_ local: ManagedObject, clientID: String?) throws -> SyncConflict {
        let entry = try outbox.enqueue(.create, localID: local.objectID.uuid, payload: mapping.attributes(of: local),
                                       sequence: try outbox.nextSequence(), clientID: clientID)
        entry["sent"] = .bool(true)  // looked up first: another client may have made it again
        return try announce(SyncConflict(original: local.objectID, copy: nil, kind: .deletedOnServer))
    }
}
