import Foundation
import TrellisCore
import TrellisStore

/// Pulling the server's collection into the store (see "Pulling" in ``EntitySync``).
extension EntitySync {
    /// What the sync knew of the server before a pull, by server id and by client id.
    struct KnownRecords {
        var byRemoteID: [String: SyncRecords.Record] = [:]
        var byClientID: [String: SyncRecords.Record] = [:]
        /// Local objects with queued changes: their push decides, the pull leaves them alone.
        let queued: Set<UUID>
        /// Client ids of queued creates: the create finds its resource when it is pushed.
        let queuedCreates: Set<String>
        /// Records of creates made after an attempt whose outcome was unknown.
        let uncertain: [SyncRecords.Record]

        init(_ records: [SyncRecords.Record], entries: [Outbox.Entry]) {
            byRemoteID.reserveCapacity(records.count)
            byClientID.reserveCapacity(records.count)
            for record in records {
                byRemoteID[record.remoteID] = record
                if let clientID = record.clientID { byClientID[clientID] = record }
            }
            queued = Set(entries.map(\.localID))
            queuedCreates = Set(entries.filter { $0.operation == .create }.map(\.clientID))
            uncertain = records.filter(\.isUncertainCreate)
        }

        mutating func add(_ record: SyncRecords.Record) {
            byRemoteID[record.remoteID] = record
            if let clientID = record.clientID { byClientID[clientID] = record }
        }

        mutating func forget(_ record: SyncRecords.Record) {
            if byRemoteID[record.remoteID]?.localID == record.localID { byRemoteID[record.remoteID] = nil }
            if let clientID = record.clientID, byClientID[clientID]?.localID == record.localID { byClientID[clientID] = nil }
        }
    }

    /// Fetches the collection and merges it into the store by server id; then confirms, one
    /// by one, what the list left out before taking anything out (see ``EntitySync+Absence``).
    func pull(into report: inout SyncReport) async throws {
        // Nothing written or queued in this pass and every record's object there: a list as
        // the last pull that took one in whole left nothing to do has nothing new.
        let quiet = try writtenThisPass.isEmpty && localIDsThisPass == nil && outbox.count() == 0
        let listed: [RemoteResource]
        do {
            guard let resources = try await fetchCollection(quiet: quiet) else {
                report.listUnchanged = true
                return
            }
            listed = resources
        } catch {
            report.failure = error
            return
        }
        var known = KnownRecords(try records.all(), entries: try outbox.entries())
        if !listed.isEmpty { try learn { $0.versions = listed.contains { $0.version != nil } } }
        let listedIDs = Set(listed.compactMap(\.id))
        var incomplete: [RemoteResource] = []
        for resource in listed {
            guard let remoteID = resource.id else { continue }
            if let missing = mapping.missingKeys(in: resource.attributes) {
                // A summary: never applied as blanks. Unchanged in what it shows, it is left
                // alone; otherwise it is read whole.
                if let record = known.byRemoteID[remoteID], !known.queued.contains(record.localID),
                   record.base.map({ base in resource.attributes.allSatisfy { key, value in
                       !mapping.keys.contains(key) || mapping.wireValue(value, key: key, entity: entity) == base[key]
                   } }) == true
                {
                    continue
                }
                logger.debug("list item without some synced members: read whole",
                             metadata: ["id": "\(remoteID)", "missing": "\(missing.joined(separator: ", "))"])
                incomplete.append(resource)
                continue
            }
            try take(resource, known: &known, listedIDs: listedIDs, report: &report)
        }
        try context.save()
        try await readWhole(incomplete, known: &known, listedIDs: listedIDs, report: &report)
        try await confirmAbsences(known: known, listedIDs: listedIDs, report: &report)
        try context.save()
    }

    /// `GET <collection>`, with `If-None-Match` when the server gave the last list an ETag:
    /// `nil` when it answers 304 (nothing changed since), or, from a server without ETags,
    /// when the pass is `quiet` and the list is the same, byte for byte, as the last one taken
    /// in whole (its digest stands for the ETag the server does not give; the transport then
    /// leaves the list unparsed, ``SyncRequest/knownBodyDigest``).
    private func fetchCollection(quiet: Bool) async throws(SyncError) -> [RemoteResource]? {
        let stored = (try? profile.listETag()) ?? nil
        let tag = capabilities.listETags == true ? stored : nil
        let digest = quiet && stored?.hasPrefix(Self.listDigestPrefix) == true
            ? stored.map { String($0.dropFirst(Self.listDigestPrefix.count)) } : nil
        let response = try await send(SyncRequest(.get, collection.url, ifNoneMatch: tag, knownBodyDigest: digest))
        if response.status == 304 {
            pendingListETag = tag
            return nil
        }
        let digestTag = response.bodyDigest.map { Self.listDigestPrefix + $0 }
        if response.version == nil, quiet, let digestTag, digestTag == stored {
            pendingListETag = digestTag
            return nil
        }
        guard let items = response.body.arrayValue else {
            throw .unexpectedBody(method: .get, url: collection.url, expected: "an array of resources", found: response.body)
        }
        var resources: [RemoteResource] = []
        resources.reserveCapacity(items.count)
        for item in items {
            guard let resource = RemoteResource(json: item), resource.id != nil else {
                throw .unexpectedBody(method: .get, url: collection.url, expected: "resource objects with an id", found: item)
            }
            resources.append(resource)
        }
        pendingListETag = response.version ?? digestTag
        try? learn { $0.listETags = response.version != nil }
        return resources
    }

    /// What a stored list "ETag" made from the list's digest starts with.
    static var listDigestPrefix: String { "trellis-digest:" }

    /// Reads the incomplete list items one by one (at most ``readLimit`` a pass; the rest
    /// wait for the next) and merges what comes back whole.
    private func readWhole(_ incomplete: [RemoteResource], known: inout KnownRecords, listedIDs: Set<String>,
                           report: inout SyncReport) async throws
    {
        for resource in incomplete.prefix(Self.readLimit) {
            guard let remoteID = resource.id else { continue }
            let whole: RemoteResource?
            do {
                whole = try await fetchResource(remoteID)
            } catch {
                report.failure = error
                return
            }
            guard let whole else { continue }  // deleted since the list: the next list tells
            // Members the server does not hold even read alone are not blanks: they keep what
            // this client knew of them (the base), or the attribute's default for a new note.
            var attributes = whole.attributes
            if let missing = mapping.missingKeys(in: attributes), let base = known.byRemoteID[remoteID]?.base {
                for key in missing { attributes[key] = base[key] }
            }
            report.readWhole += 1
            try take(RemoteResource(id: remoteID, version: whole.version, attributes: attributes), known: &known,
                     listedIDs: listedIDs, report: &report)
            try context.save()
        }
        if incomplete.count > Self.readLimit { report.skipped += incomplete.dropFirst(Self.readLimit).compactMap(\.id) }
    }

    /// How many single resources a pass reads at most (incomplete items, absences to confirm).
    static var readLimit: Int { 50 }

    /// Merges one listed (or read) resource into the store.
    func take(_ resource: RemoteResource, known: inout KnownRecords, listedIDs: Set<String>,
              report: inout SyncReport) throws
    {
        guard let remoteID = resource.id else { return }
        if let record = known.byRemoteID[remoteID], let base = record.base, !known.queued.contains(record.localID),
           hasLocalObject(record.localID), mapping.keys.allSatisfy({ resource.attributes[$0] == base[$0] }),
           record.clientID == nil || resource.attributes[mapping.clientIDKey].map({ $0 == .string(record.clientID ?? "") }) != false
        {
            // As the server last held it, member for member (most of a quiet pass).
            unchanged(record, version: resource.version)
            return
        }
        guard let values = mapping.values(from: resource.attributes, entity: entity) else {
            logger.warning("server resource skipped: its attributes do not fit the store", metadata: ["id": "\(remoteID)"])
            report.skipped.append(remoteID)
            return
        }
        let clientID = resource.attributes[mapping.clientIDKey]?.stringValue
        var record = known.byRemoteID[remoteID]
        if let found = record, let recorded = found.clientID, let clientID, recorded != clientID,
           !known.queued.contains(found.localID)
        {
            // The id now names another resource (ids given again after a restore from a
            // backup): the record's own resource is gone.
            try gone(found, known: &known, report: &report)
            try context.save()
            record = nil
        }
        if record == nil, let clientID, let same = known.byClientID[clientID], !listedIDs.contains(same.remoteID) {
            // The resource was created again under a new id (by its creator, after a deletion
            // or a loss): the record follows it.
            known.forget(same)
            let moved = records.relink(same, toRemoteID: remoteID)
            known.add(moved)
            record = moved
        }
        if let record {
            if known.queued.contains(record.localID) { return }
            try merge(resource, values: values, into: record, report: &report)
        } else if let clientID, let original = known.byClientID[clientID], mapping.attributes(of: values) == original.base {
            try queueDuplicateDeletion(resource, clientID: clientID, report: &report)
        } else if clientID == nil, capabilities.keepsClientID == false,
                  let original = known.uncertain.first(where: {
                      $0.base == mapping.attributes(of: values) && listedIDs.contains($0.remoteID)
                  })
        {
            // A server that drops the client id: a second resource holding exactly what an
            // uncertain create sent is that create, arrived late.
            try queueDuplicateDeletion(resource, clientID: original.clientID ?? "", report: &report)
        } else if let clientID, known.queuedCreates.contains(clientID) {
            // The queued create finds it when it is pushed.
            return
        } else {
            let inserted = try context.insert(entity.name)
            _ = try apply(values, to: inserted)
            known.add(try records.set(local: inserted.objectID.uuid, remoteID: remoteID, version: resource.version,
                                      base: mapping.attributes(of: values), clientID: clientID, listed: true,
                                      isNew: true))
            report.inserted += 1
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
                        clientID: clientID, listed: true, isNew: true)
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
