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
            return try createAgain(entry, record: record)
        case .success(.changed(let current, let served)) where served == entry.payload:
            // This very change was written by an attempt whose answer was lost.
            record.update(version: current.version, base: entry.payload)
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
        record.update(version: Self.answeredResource(response).version, base: entry.payload)
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
        return .success(served == base ? .unchanged(version: current.version) : .changed(current, served: served))
    }

    /// Applies the conflict rule to a refused write, or stops the push.
    private func refused(_ error: SyncError, entry: Outbox.Entry, record: SyncRecords.Record,
                         into report: inout SyncReport) async throws -> PushOutcome
    {
        if Self.isGone(error) { return try createAgain(entry, record: record) }
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
        guard let current else { return try createAgain(entry, record: record) }
        return try await conflict(entry, record: record, current: current, into: &report)
    }

    /// The resource was deleted on the server while the object was changed here: the same
    /// entry is sent again, as a create.
    private func createAgain(_ entry: Outbox.Entry, record: SyncRecords.Record) throws -> PushOutcome {
        try context.delete(record.object)
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
