import Foundation
import TrellisCore
import TrellisStore

/// What a list leaves out: never taken out on the word of one list (see "Pulling" in
/// ``EntitySync``). Each missing note is read alone first; only a 404 (or 410) takes it out,
/// to the Trash. A list that leaves out more than a small share of the notes at once takes
/// nothing out: the user decides.
extension EntitySync {
    /// Whether `missing` of `known` notes is more than a small share: more than 3, and more
    /// than a tenth.
    static func isSuspect(missing: Int, known: Int) -> Bool {
        missing > 3 && missing * 10 > known
    }

    /// Reads each record's resource the list left out (at most ``readLimit`` a pass): still
    /// there, it is merged as read; gone, its object goes to the Trash (or, changed here, is
    /// created again as a conflict).
    func confirmAbsences(known: KnownRecords, listedIDs: Set<String>, report: inout SyncReport) async throws {
        let missing = known.byRemoteID.filter { remoteID, record in
            remoteID == record.remoteID && !listedIDs.contains(remoteID) && !known.queued.contains(record.localID)
        }.values.sorted { $0.remoteID < $1.remoteID }
        suspectMissing = []
        guard !missing.isEmpty else { return }
        let knownCount = known.byRemoteID.count
        if Self.isSuspect(missing: missing.count, known: knownCount) {
            report.suspectList = SuspectList(missing: missing.count, known: knownCount)
            suspectMissing = missing.map(\.localID)
            logger.warning("the server's list leaves out too many notes at once: nothing is taken out",
                           metadata: ["missing": "\(missing.count)", "known": "\(knownCount)"])
            return
        }
        var readable = known
        for record in missing.prefix(Self.readLimit) {
            let current: RemoteResource?
            do {
                current = try await fetchResource(record.remoteID)
            } catch {
                report.failure = error
                return
            }
            if let current, mapping.missingKeys(in: current.attributes) == nil {
                report.unlisted += 1
                logger.notice("the list left out a note the server still has: kept", metadata: ["id": "\(record.remoteID)"])
                readable.byRemoteID[record.remoteID] = record
                try take(RemoteResource(id: record.remoteID, version: current.version, attributes: current.attributes),
                         known: &readable, listedIDs: listedIDs.union([record.remoteID]), report: &report)
            } else if current == nil {
                try gone(record, known: &readable, report: &report)
            }
            try context.save()
        }
    }

    /// The server answers 404 for `record`'s resource: its object goes to the Trash (nothing
    /// unsent in it) or, changed here since the server last held it, is created again and
    /// the conflict kept. A deletion on another device thus stays a deletion.
    func gone(_ record: SyncRecords.Record, known: inout KnownRecords, report: inout SyncReport) throws {
        let (base, wasListed, wasSeen, clientID) = (record.base, record.isListed, record.wasSeen, record.clientID)
        known.forget(record)
        try context.delete(record.object)
        guard let local = try object(record.localID) else { return }
        let localValues = mapping.attributes(of: local)
        if localValues == base, !wasSeen {
            // Written by this client and never listed since (the server died in the pass that
            // wrote it, say): no other client can have deleted what it never saw.
            let entry = try outbox.enqueue(.create, localID: local.objectID.uuid, payload: localValues,
                                           sequence: try outbox.nextSequence(), clientID: clientID, pristine: true)
            entry["sent"] = .bool(true)
            logger.notice("the server lost a note it had acknowledged: created again", metadata: ["object": "\(local.objectID)"])
            report.recreated += 1
        } else if localValues == base {
            let reason = wasListed ? Self.deletedOnServer : Self.notOnServer
            try trash.add(local, remoteID: record.remoteID, clientID: clientID, reason: reason)
            logger.notice("no longer on the server: moved to the Trash", metadata: ["object": "\(local.objectID)"])
            report.trashed += 1
        } else {
            report.conflicts.append(try createAgainAfterDeletion(local, clientID: clientID))
            report.recreated += 1
        }
    }

    /// The Trash's reason for a note the server deleted after this client saw it kept.
    public nonisolated static let deletedOnServer = "deleted on the server"
    /// The Trash's reason for a note the server no longer has that this client wrote and had
    /// not yet seen kept: another device deleted it, or the server lost it (the two look the
    /// same from here, and a deletion must stay one; Restore sends it again).
    public nonisolated static let notOnServer = "no longer on the server: deleted on another device, or lost by the server"

    /// Takes out the notes the last pass's suspect list left out (``SyncReport/suspectList``):
    /// each goes to the Trash, as if the server had deleted it. Returns how many.
    @discardableResult
    public func acceptMissing() throws -> Int {
        try resolveMissing { record, local in
            try trash.add(local, remoteID: record.remoteID, clientID: record.clientID, reason: Self.deletedOnServer)
        }
    }

    /// Sends the notes the last pass's suspect list left out to the server again, as new
    /// notes (each first looked for by its client id, so one the server still has is not
    /// made twice). Returns how many.
    @discardableResult
    public func sendMissingAgain() throws -> Int {
        try resolveMissing { record, local in
            let values = mapping.attributes(of: local)
            let entry = try outbox.enqueue(.create, localID: local.objectID.uuid, payload: values,
                                           sequence: try outbox.nextSequence(), clientID: record.clientID,
                                           pristine: values == record.base)
            entry["sent"] = .bool(true)
        }
    }

    /// The notes of the last suspect list still left out: `resolve` each, then forget their
    /// records; one save.
    private func resolveMissing(_ resolve: (SyncRecords.Record, ManagedObject) throws -> Void) throws -> Int {
        var resolved = 0
        do {
            for localID in suspectMissing {
                guard let record = try records.record(local: localID) else { continue }
                if let local = try object(localID) {
                    try resolve(record, local)
                    resolved += 1
                }
                try context.delete(record.object)
            }
            try context.save()
        } catch {
            context.rollback()
            throw error
        }
        suspectMissing = []
        announceKeptChange()
        wake?.yield()
        return resolved
    }
}
