import Foundation
import TrellisCore
import TrellisStore

/// Pulling the server's collection into the store (see "Pulling" in ``EntitySync``).
extension EntitySync {
    /// Fetches the collection and merges it into the store by server id, in one save.
    func pull(into report: inout SyncReport) async throws {
        do {
            try await collection.fetch()
        } catch {
            report.failure = error.syncError
            return
        }
        let entries = try outbox.entries()
        let queued = Set(entries.map(\.localID))
        let queuedCreates = Set(entries.filter { $0.operation == .create }.map { Self.clientID(of: $0.localID) })
        let known = try records.all()
        var byRemoteID: [String: SyncRecords.Record] = [:]
        var byClientID: [String: SyncRecords.Record] = [:]
        for record in known {
            byRemoteID[record.remoteID] = record
            if let clientID = record.clientID { byClientID[clientID] = record }
        }
        let models = collection.models
        if !models.isEmpty { try learn { $0.versions = models.contains { $0.version != nil } } }

        var listed = Set<String>()
        for model in models {
            guard let remoteID = model.id else { continue }
            listed.insert(remoteID)
            let resource = RemoteResource(id: remoteID, version: model.version, attributes: model.attributes)
            guard let values = mapping.values(from: model.attributes, entity: entity) else {
                logger.warning("server resource skipped: its attributes do not fit the store",
                               metadata: ["url": "\(model.url.absoluteString)"])
                report.skipped.append(remoteID)
                continue
            }
            let clientID = model.attributes[mapping.clientIDKey]?.stringValue
            if let record = byRemoteID[remoteID] {
                if !createdThisPass.contains(record.localID) { record.markListed() }
                if queued.contains(record.localID) { continue }
                try merge(resource, values: values, into: record, report: &report)
            } else if let clientID, let original = byClientID[clientID],
                      mapping.attributes(of: values) == original.base {
                try queueDuplicateDeletion(resource, clientID: clientID, report: &report)
            } else if let clientID, queuedCreates.contains(clientID) {
                // The queued create finds it when it is pushed.
                continue
            } else {
                let inserted = try context.insert(entity.name)
                _ = try apply(values, to: inserted)
                try records.set(local: inserted.objectID.uuid, remoteID: remoteID, version: model.version,
                                base: mapping.attributes(of: values), clientID: clientID, listed: true)
                report.inserted += 1
            }
        }
        for record in known where !listed.contains(record.remoteID) && !queued.contains(record.localID) {
            try vanished(record, report: &report)
        }
        try context.save()
    }

    /// Takes a listed resource's state into its object when the server changed it since the
    /// base; keeps the object's values otherwise.
    private func merge(_ resource: RemoteResource, values: [String: AttributeValue], into record: SyncRecords.Record,
                       report: inout SyncReport) throws
    {
        let served = mapping.attributes(of: values)
        guard let local = try object(record.localID) else {
            // Deleted here without a queued deletion: it comes back rather than being lost.
            let restored = try context.insert(entity.name)
            _ = try apply(values, to: restored)
            records.relink(record, to: restored.objectID.uuid)
            record.update(version: resource.version, base: served)
            report.inserted += 1
            return
        }
        let changedOnServer: Bool
        if let base = record.base {
            changedOnServer = served != base
        } else {
            changedOnServer = resource.version == nil || resource.version != record.version
        }
        guard changedOnServer else {
            if resource.version != record.version { record.update(version: resource.version, base: served) }
            return
        }
        let localValues = mapping.attributes(of: local)
        if let base = record.base, localValues != base, localValues != served {
            // Changed here too, by a save whose queuing is still to come: that change is kept as a copy.
            report.conflicts.append(try keepServerState(values, version: resource.version, record: record,
                                                        keepingLocalEdit: true, dropping: []))
            return
        }
        if try apply(values, to: local) { report.updated += 1 }
        record.update(version: resource.version, base: served)
    }

    /// A resource the server lists no more: deleted on the server, to the Trash; or lost by
    /// the server, or holding unsent changes, to be created again.
    private func vanished(_ record: SyncRecords.Record, report: inout SyncReport) throws {
        guard let local = try object(record.localID) else {
            try context.delete(record.object)
            return
        }
        let localValues = mapping.attributes(of: local)
        try context.delete(record.object)
        if record.isListed, localValues == record.base {
            try trash.add(local, remoteID: record.remoteID, reason: "deleted on the server")
            logger.notice("deleted on the server: moved to the Trash", metadata: ["object": "\(local.objectID)"])
            report.trashed += 1
        } else {
            try outbox.enqueue(.create, localID: record.localID, payload: localValues,
                               sequence: try outbox.nextSequence())
            logger.notice("the server lost an object it had acknowledged, or it holds unsent changes: created again",
                          metadata: ["object": "\(local.objectID)"])
            report.recreated += 1
        }
    }

    /// A second resource made by one create (a POST still under way when its lookup ran):
    /// it is queued for deletion as the object of a record of its own.
    private func queueDuplicateDeletion(_ resource: RemoteResource, clientID: String, report: inout SyncReport) throws {
        guard let remoteID = resource.id, let base = mapping.wireAttributes(from: resource.attributes, entity: entity) else {
            return
        }
        let placeholder = UUID()
        try records.set(local: placeholder, remoteID: remoteID, version: resource.version, base: base,
                        clientID: clientID, listed: true)
        try outbox.enqueue(.delete, localID: placeholder, payload: nil, sequence: try outbox.nextSequence())
        logger.notice("a create was made twice on the server: the second resource is deleted",
                      metadata: ["id": "\(remoteID)", "clientID": "\(clientID)"])
        report.duplicates += 1
    }

    /// Sets `values` on `object`; returns whether any value differed. Values are compared
    /// in their JSON form, the precision they travel with (dates to the millisecond).
    func apply(_ values: [String: AttributeValue], to object: ManagedObject) throws -> Bool {
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
