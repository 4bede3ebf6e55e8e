import Foundation
import TrellisCore
import TrellisStore

/// Pulling the server's collection into the store.
extension EntitySync {
    /// Fetches the collection and merges it into the store by server id, in one save:
    /// new resources are inserted, resources whose version changed update their local
    /// object, vanished ones delete it. Objects with queued changes are left for their push
    /// to decide. (Without versions from the server, values are compared instead.)
    func pull(into report: inout SyncReport) async throws {
        do {
            try await collection.fetch()
        } catch {
            report.failure = error.syncError
            return
        }
        let queued = Set(try outbox.entries().map(\.localID))
        let known = try records.all()
        var byRemoteID: [String: SyncRecords.Record] = [:]
        for record in known { byRemoteID[record.remoteID] = record }

        var listed = Set<String>()
        for model in collection.models {
            guard let remoteID = model.id else { continue }
            listed.insert(remoteID)
            let record = byRemoteID[remoteID]
            if let record, queued.contains(record.localID) { continue }
            let local = try record.flatMap { try object($0.localID) }
            // Unchanged on the server since the local object was based on it: keep the local
            // values (they may hold an edit saved but not queued yet).
            if let record, local != nil, let version = record.version, version == model.version { continue }
            guard let values = mapping.values(from: model.attributes, entity: entity) else {
                logger.warning("server resource skipped: its attributes do not fit the store",
                               metadata: ["url": "\(model.url.absoluteString)"])
                report.skipped.append(remoteID)
                continue
            }
            if let record, let local {
                if try apply(values, to: local) { report.updated += 1 }
                record.object["version"] = model.version.map(AttributeValue.string) ?? .null
            } else {
                let inserted = try context.insert(entity.name)
                _ = try apply(values, to: inserted)
                if let record {
                    // The local object was deleted without a queued deletion: it comes back.
                    records.relink(record, to: inserted.objectID.uuid)
                    record.object["version"] = model.version.map(AttributeValue.string) ?? .null
                } else {
                    try records.set(local: inserted.objectID.uuid, remoteID: remoteID, version: model.version)
                }
                report.inserted += 1
            }
        }
        for record in known where !listed.contains(record.remoteID) && !queued.contains(record.localID) {
            if let local = try object(record.localID) {
                try context.delete(local)
                report.deleted += 1
            }
            try context.delete(record.object)
        }
        try context.save()
    }

    /// Sets `values` on `object`; returns whether any value differed. Values are compared
    /// in their JSON form, the precision they travel with (dates to the millisecond).
    private func apply(_ values: [String: AttributeValue], to object: ManagedObject) throws -> Bool {
        var changed = false
        for key in mapping.keys {
            guard let value = values[key], SyncMapping.wireJSON(object[key]) != SyncMapping.wireJSON(value) else {
                continue
            }
            try object.setValue(value, forKey: key)
            changed = true
        }
        return changed
    }
}
