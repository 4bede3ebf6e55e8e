import Foundation
import TrellisCore
import TrellisStore

/// Pulling the server's collection into the store.
extension EntitySync {
    /// Fetches the collection and merges it into the store by server id, in one save:
    /// new resources are inserted, changed ones update their local object, vanished ones
    /// delete it. Objects with queued changes are left for their push to decide.
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
            guard let values = mapping.values(from: model.attributes, entity: entity) else {
                logger.warning("server resource skipped: its attributes do not fit the store",
                               metadata: ["url": "\(model.url.absoluteString)"])
                report.skipped.append(remoteID)
                continue
            }
            if let record, let local = try object(record.localID) {
                if try apply(values, to: local) { report.updated += 1 }
                record.object["version"] = model.version.map(AttributeValue.string) ?? .null
            } else {
                let local = try context.insert(entity.name)
                _ = try apply(values, to: local)
                if let record { records.relink(record, to: local.objectID.uuid) }
                try records.set(local: local.objectID.uuid, remoteID: remoteID, version: model.version)
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
            guard let value = values[key], SyncMapping.wireJSON(object[key]) != SyncMapping.wireJSON(value) else { continue }
            try object.setValue(value, forKey: key)
            changed = true
        }
        return changed
    }
}
