import Foundation
import TrellisCore
import TrellisStore

/// Pushing the outbox: changes and deletions (creates: see `EntitySync+Create`), each
/// written only after reading the resource and finding it as the change's base left it,
/// and sent with `If-Match` on that state's version when the server has versions.
extension EntitySync {
    /// What became of one entry.
    enum PushOutcome {
        /// Handled (accepted, or resolved): go on with the next entry.
        case next
        /// Keep the entry and end the push.
        case stop(SyncError)
    }

    /// What reading a resource before writing it found.
    private enum ServerState {
        /// As the base: the write may go, conditional on `version`.
        case unchanged(version: String?)
        /// Changed since the base; `served` are its synced attributes (`nil` for a record
        /// made before bases were kept).
        case changed(RemoteResource, served: [String: JSONValue]?)
        /// Deleted on the server.
        case gone
    }

    /// Pushes entries oldest first until the queue is empty or the server cannot be reached.
    /// An entry the server refuses (another 4xx, an answer of the wrong shape) or that the
    /// store cannot record stays queued with its error, and so do its object's later entries
    /// (their order matters); the other objects' entries go on, so one bad change never
    /// holds back the rest.
    func push(into report: inout SyncReport) async throws {
        while let entry = try outbox.first(excluding: heldThisPass) {
            let outcome: PushOutcome
            do {
                outcome = try await push(entry, into: &report)
            } catch {
                context.rollback()
                logger.error("a queued change cannot be recorded: kept, the others go on",
                             metadata: ["object": "\(entry.localID)", "error": "\(error)"])
                report.storeFailure = String(describing: error)
                try keepQueued(entry, reason: "the store: \(error)")
                heldThisPass.insert(entry.localID)
                continue
            }
            guard case .stop(let error) = outcome else { continue }
            outbox.recordFailure(entry, error: error)
            try context.save()
            guard Self.concernsOnlyThisChange(error) else {
                report.failure = error
                return
            }
            report.refusals.append(error)
            heldThisPass.insert(entry.localID)
        }
    }

    /// Whether `error` is the server refusing this one change (a 4xx other than 408 and 429,
    /// an answer of the wrong shape): the other changes may go. Anything else (no answer, a
    /// 5xx, a garbled answer) would meet them too, and ends the push.
    static func concernsOnlyThisChange(_ error: SyncError) -> Bool {
        if case .unexpectedBody = error { return true }
        return isRefusal(error)
    }

    /// Notes on `entry`, afresh from the store, why it stays queued.
    private func keepQueued(_ entry: Outbox.Entry, reason: String) throws {
        guard let fresh = try outbox.entries().first(where: { $0.sequence == entry.sequence }) else { return }
        fresh.object["attempts"] = .integer((fresh.object["attempts"].intValue ?? 0) + 1)
        fresh.object["lastError"] = .string(reason)
        try context.save()
    }

    private func push(_ entry: Outbox.Entry, into report: inout SyncReport) async throws -> PushOutcome {
        let record = try records.record(local: entry.localID)
        switch (entry.operation, record) {
        case (.delete, nil):
            // The server never had the object: there is nothing to delete.
            try finish(entry)
            return .next
        case (.delete, let record?):
            return try await delete(entry, record: record, into: &report)
        case (_, nil):
            return try await create(entry, into: &report)
        case (_, let record?):
            return try await update(entry, record: record, into: &report)
        }
    }

    /// PUTs the entry's attributes, unless the server's state is no longer the base.
    private func update(_ entry: Outbox.Entry, record: SyncRecords.Record, into report: inout SyncReport) async throws
        -> PushOutcome
    {
        let version: String?
        switch try await readBeforeWriting(record) {
        case .failure(let error):
            return .stop(error)
        case .success(.gone):
            return try createAgain(entry, record: record, into: &report)
        case .success(.changed(let current, let served)) where served == entry.payload:
            // This very change was written by an attempt whose answer was lost.
            record.acknowledge(version: current.version, written: entry.payload)
            writtenThisPass.insert(entry.localID)
            return try pushed(entry, into: &report)
        case .success(.changed(let current, _)):
            return try await conflict(entry, record: record, current: current, into: &report)
        case .success(.unchanged(let current)):
            version = current
        }
        let response: SyncResponse
        do {
            response = try await send(SyncRequest(.put, resourceURL(record.remoteID),
                                                  body: body(entry.payload, clientID: record.clientID), ifMatch: version))
        } catch {
            return try await refused(error, entry: entry, record: record, into: &report)
        }
        let answered = Self.answeredResource(response)
        record.acknowledge(version: answered.version, written: stored(answered, sent: entry.payload))
        writtenThisPass.insert(entry.localID)
        return try pushed(entry, into: &report)
    }

    /// DELETEs the resource, unless the server changed it since the base.
    private func delete(_ entry: Outbox.Entry, record: SyncRecords.Record, into report: inout SyncReport) async throws
        -> PushOutcome
    {
        let version: String?
        switch try await readBeforeWriting(record) {
        case .failure(let error): return .stop(error)
        case .success(.gone): return try deleted(entry, record: record, into: &report)
        case .success(.changed(let current, _)): return try await conflict(entry, record: record, current: current,
                                                                             into: &report)
        case .success(.unchanged(let current)): version = current
        }
        do {
            _ = try await send(SyncRequest(.delete, resourceURL(record.remoteID), ifMatch: version))
        } catch where Self.isGone(error) {
            // Already gone: the deletion is done.
        } catch {
            return try await refused(error, entry: entry, record: record, into: &report)
        }
        return try deleted(entry, record: record, into: &report)
    }

    private func deleted(_ entry: Outbox.Entry, record: SyncRecords.Record, into report: inout SyncReport) throws
        -> PushOutcome
    {
        try context.delete(record.object)
        return try pushed(entry, into: &report)
    }

    /// The server has the entry's change: the entry leaves the queue with what the caller
    /// recorded, in one save.
    private func pushed(_ entry: Outbox.Entry, into report: inout SyncReport) throws -> PushOutcome {
        try finish(entry)
        report.pushed += 1
        return .next
    }

    /// Reads the resource and compares its synced attributes with the base (or, for a
    /// record made before bases were kept, its version with the record's).
    private func readBeforeWriting(_ record: SyncRecords.Record) async throws -> Result<ServerState, SyncError> {
        let current: RemoteResource?
        do {
            current = try await fetchResource(record.remoteID)
        } catch {
            return .failure(error)
        }
        guard let current else { return .success(.gone) }
        if current.version != nil {
            try learn { $0.versions = true }
            try context.save()
        }
        guard let base = record.base else {
            let moved = current.version != nil && current.version != record.version
            return .success(moved ? .changed(current, served: nil) : .unchanged(version: current.version))
        }
        guard let served = mapping.wireAttributes(from: current.attributes, entity: entity) else {
            return .failure(.unexpectedBody(method: .get, url: resourceURL(record.remoteID),
                                            expected: "a resource with the synced attributes",
                                            found: .object(current.attributes)))
        }
        if served == base { return .success(.unchanged(version: current.version)) }
        if !record.isListed, let previous = record.previous, served == previous {
            // The server lost this client's last acknowledged write: the change, made on top
            // of it, holds it, and is written over what the server went back to.
            logger.notice("the server lost a change it had acknowledged: the next one holds it",
                          metadata: ["id": "\(record.remoteID)"])
            return .success(.unchanged(version: current.version))
        }
        return .success(.changed(current, served: served))
    }

    /// What the server holds after a write it answered: the synced attributes of its answer
    /// when it sent the resource back (a server may normalise what it stores), else `sent`.
    func stored(_ answered: RemoteResource, sent: [String: JSONValue]) -> [String: JSONValue] {
        guard !answered.attributes.isEmpty, mapping.missingKeys(in: answered.attributes) == nil,
              let served = mapping.wireAttributes(from: answered.attributes, entity: entity)
        else { return sent }
        return served
    }

    /// Applies the conflict rule to a refused write, or stops the push.
    private func refused(_ error: SyncError, entry: Outbox.Entry, record: SyncRecords.Record,
                         into report: inout SyncReport) async throws -> PushOutcome
    {
        if Self.isGone(error) { return try createAgain(entry, record: record, into: &report) }
        guard Self.isConflict(error), case .httpStatus(_, _, _, let body) = error else { return .stop(error) }
        if let answered = RemoteResource(json: body), answered.id != nil {
            return try await conflict(entry, record: record, current: answered, into: &report)
        }
        let current: RemoteResource?
        do {
            current = try await fetchResource(record.remoteID)
        } catch {
            return .stop(error)
        }
        guard let current else { return try createAgain(entry, record: record, into: &report) }
        return try await conflict(entry, record: record, current: current, into: &report)
    }

    /// The resource was deleted on the server (or lost by it) while the object was changed
    /// here: the same entry is sent again, as a create, and the conflict is kept for the user.
    private func createAgain(_ entry: Outbox.Entry, record: SyncRecords.Record, into report: inout SyncReport) throws
        -> PushOutcome
    {
        // Made again under the resource's client id, looked up first, so that clients making it
        // again make it once.
        if let clientID = record.clientID { entry.object["clientID"] = .string(clientID) }
        entry.object["sent"] = .bool(true)
        try context.delete(record.object)
        if try object(entry.localID) != nil {
            report.conflicts.append(try announce(SyncConflict(original: ObjectID(entityName: entity.name, uuid: entry.localID),
                                                              copy: nil, kind: .deletedOnServer)))
        }
        try context.save()
        logger.info("resource deleted on the server; the local change is created again",
                    metadata: ["url": "\(resourceURL(record.remoteID).absoluteString)"])
        return .next
    }

    /// The server's state `current` wins over the entry (see ``keepServerState``).
    private func conflict(_ entry: Outbox.Entry, record: SyncRecords.Record, current: RemoteResource,
                          into report: inout SyncReport) async throws -> PushOutcome
    {
        guard let serverValues = mapping.values(from: current.attributes, entity: entity) else {
            return .stop(.unexpectedBody(method: .get, url: resourceURL(record.remoteID),
                                         expected: "a resource with the synced attributes",
                                         found: .object(current.attributes)))
        }
        let queued = try outbox.entries().filter { $0.localID == entry.localID }
        report.conflicts.append(try keepServerState(serverValues, version: current.version, record: record,
                                                    keepingLocalEdit: queued.last?.operation != .delete,
                                                    dropping: queued))
        try context.save()
        return .next
    }

    /// Drops a pushed entry, in one save with what the caller recorded.
    func finish(_ entry: Outbox.Entry) throws {
        try context.delete(entry.object)
        try context.save()
    }
}
