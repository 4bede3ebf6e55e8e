import Foundation
import TrellisCore
import TrellisStore

/// Merging one listed resource into the object its record names: the server's changes are
/// taken, and no acknowledged write of this client is ever silently reverted (see "Pulling"
/// in ``EntitySync``).
extension EntitySync {
    /// Takes the resource's state into its object when the server changed it since the base;
    /// keeps the object otherwise. A state that undoes an acknowledged write of this client is
    /// a lost write (sent again) or, when that cannot be told, a conflict: never taken silently.
    func merge(_ resource: RemoteResource, values: [String: AttributeValue], into record: SyncRecords.Record,
               report: inout SyncReport) throws
    {
        let served = mapping.attributes(of: values)
        if let base = record.base, served == base, hasLocalObject(record.localID) {
            unchanged(record, version: resource.version)
            return
        }
        guard let local = try object(record.localID) else {
            // Deleted here without a queued deletion: it comes back rather than being lost.
            let restored = try context.insert(entity.name)
            _ = try apply(values, to: restored)
            records.relink(record, to: restored.objectID.uuid)
            record.take(version: resource.version, served: served)
            report.inserted += 1
            return
        }
        guard let base = record.base else {
            // A record made before bases were kept: the version tells.
            if resource.version == nil || resource.version != record.version {
                if try apply(values, to: local) { report.updated += 1 }
            }
            record.take(version: resource.version, served: served)
            return
        }
        if served == base {
            unchanged(record, version: resource.version)
            return
        }
        let localValues = mapping.attributes(of: local)
        let unsent = localValues != base
        if !unsent, let previous = record.previous, served == previous, !record.isListed, record.lostWrites < 2 {
            // The server went back to the state this client's acknowledged write replaced: it
            // lost the write (a crash before its disk, a backup restored). It is written again.
            record.lost(version: resource.version, served: served)
            try outbox.enqueue(.update, localID: record.localID, payload: localValues, sequence: try outbox.nextSequence())
            logger.notice("the server lost a change it had acknowledged: written again",
                          metadata: ["object": "\(local.objectID)", "id": "\(record.remoteID)"])
            report.rewritten += 1
            return
        }
        if unsent && localValues != served
            || !unsent && (!record.isListed || !record.holdsOwnWrite(served, mapping: mapping))
        {
            // Changed here too (a save still to be queued); or the server shows a state other
            // than this client's acknowledged write before a later pull saw the write kept
            // (the server may have lost it and another client written over the older state:
            // that cannot be told from an edit built on it); or a state that lacks what the
            // write changed. The server's state wins; the local version is kept as a copy.
            report.conflicts.append(try keepServerState(values, version: resource.version, record: record,
                                                        keepingLocalEdit: true, dropping: []))
            return
        }
        if try apply(values, to: local) { report.updated += 1 }
        record.take(version: resource.version, served: served)
    }

    /// The server lists the record's base: a write of an earlier pass is seen kept.
    func unchanged(_ record: SyncRecords.Record, version: String?) {
        record.markSeen()
        if !record.isListed, !writtenThisPass.contains(record.localID) { record.confirm() }
        if version != record.version { record.setVersion(version) }
    }
}
