import Foundation
import TrellisCore
import TrellisStore

/// Pushing the outbox, and the conflict rule (see ``EntitySync``).
extension EntitySync {
    /// What became of one entry.
    private enum Outcome {
        /// Handled (accepted, or resolved): go on with the next entry.
        case next
        /// Keep the entry and end the push.
        case stop(SyncError)
    }

    /// Pushes entries oldest first until the queue is empty or one cannot be pushed.
    func push(into report: inout SyncReport) async throws {
        while let entry = try outbox.first() {
            switch try await push(entry, into: &report) {
            case .next:
                continue
            case .stop(let error):
                outbox.recordFailure(entry, error: error)
                try context.save()
                report.failure = error
                return
            }
        }
    }

    private func push(_ entry: Outbox.Entry, into report: inout SyncReport) async throws -> Outcome {
        let record = try records.record(local: entry.localID)
        switch entry.operation {
        case .create, .update:
            let model = collection.makeModel(id: record?.remoteID, attributes: entry.payload, version: record?.version)
            do {
                try await model.save()
            } catch {
                return try await resolve(error, of: entry, record: record, into: &report)
            }
            guard let remoteID = model.id else {
                return .stop(.unexpectedBody(method: .post, url: model.url, expected: "the new resource's id",
                                             found: .null))
            }
            try records.set(local: entry.localID, remoteID: remoteID, version: model.version)
        case .delete:
            if let record {
                let model = collection.makeModel(id: record.remoteID, version: record.version)
                do {
                    try await model.destroy()
                } catch {
                    return try await resolve(error, of: entry, record: record, into: &report)
                }
                try context.delete(record.object)
            }
        }
        try context.delete(entry.object)
        try context.save()
        report.pushed += 1
        return .next
    }

    /// Applies the conflict rule to a refused entry, or stops the push.
    private func resolve(_ error: ModelError, of entry: Outbox.Entry, record: SyncRecords.Record?,
                         into report: inout SyncReport) async throws -> Outcome
    {
        guard case .sync(let syncError) = error else {
            return .stop(.unexpectedBody(method: .post, url: collection.url, expected: "attributes the model accepts",
                                         found: .object(entry.payload)))
        }
        guard case .httpStatus(_, let url, let status, let body) = syncError, let record else {
            return .stop(syncError)
        }
        switch (status, entry.operation) {
        case (404, .delete), (410, .delete):
            // Already gone on the server: the deletion is done.
            try context.delete(record.object)
        case (404, _), (410, _):
            // Deleted on the server, edited here: the same entry is sent again as a new resource.
            try context.delete(record.object)
            try context.save()
            logger.info("resource deleted on the server; the local edit is created again",
                        metadata: ["url": "\(url.absoluteString)"])
            return .next
        case (409, _), (412, _):
            let current: RemoteResource
            if let answered = RemoteResource(json: body), answered.id != nil {
                current = answered
            } else {
                let model = collection.makeModel(id: record.remoteID)
                do {
                    try await model.fetch()
                } catch {
                    return .stop(error.syncError ?? syncError)
                }
                current = RemoteResource(id: model.id, version: model.version, attributes: model.attributes)
            }
            guard let serverValues = mapping.values(from: current.attributes, entity: entity) else {
                return .stop(.unexpectedBody(method: .get, url: url, expected: "a resource with the mapped attributes",
                                             found: .object(current.attributes)))
            }
            report.conflicts.append(try keepServerState(serverValues, version: current.version, over: entry,
                                                        record: record))
        default:
            return .stop(syncError)
        }
        try context.delete(entry.object)
        try context.save()
        return .next
    }

    /// The server's state wins over a refused local change: the local object takes it (or
    /// is restored with it, when the refused change was a deletion); a rejected edit (the
    /// object's latest values) becomes a conflict copy queued as a new resource; the
    /// object's other queued entries are dropped, their content being in the copy.
    private func keepServerState(_ serverValues: [String: AttributeValue], version: String?, over entry: Outbox.Entry,
                                 record: SyncRecords.Record) throws -> SyncConflict
    {
        let queued = try outbox.entries().filter { $0.localID == entry.localID }
        var copyID: ObjectID?
        let original: ManagedObject
        if let local = try object(entry.localID) {
            if queued.last?.operation != .delete {
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
        record.object["version"] = version.map(AttributeValue.string) ?? .null
        for other in queued where other.object !== entry.object { try context.delete(other.object) }
        let conflict = SyncConflict(original: original.objectID, copy: copyID)
        logger.notice("sync conflict: the server's version wins",
                      metadata: ["object": "\(original.objectID)", "copy": "\(copyID?.description ?? "none")"])
        bus?.trigger(Events.conflict, conflict.json, from: self)
        return conflict
    }
}
