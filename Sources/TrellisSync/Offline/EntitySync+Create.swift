import Foundation
import TrellisCore
import TrellisStore

/// Creating an object on the server exactly once (see "Creating without duplicates" in
/// ``EntitySync``).
extension EntitySync {
    /// Creates the object of a create (or of a change to an object the server does not
    /// have): first finds out whether an earlier attempt whose outcome is unknown created
    /// it, then creates it with an upsert or a POST.
    func create(_ entry: Outbox.Entry, into report: inout SyncReport) async throws -> PushOutcome {
        let clientID = entry.clientID
        if entry.wasSent {
            let found: RemoteResource?
            do {
                found = try await findCreated(clientID: clientID, payload: entry.payload)
            } catch {
                return .stop(error)
            }
            if let found, let remoteID = found.id {
                logger.notice("a create whose answer was lost had been made: linked, not sent again",
                              metadata: ["object": "\(entry.localID)", "id": "\(remoteID)"])
                // What the server holds is not known to be built on the payload: the payload is
                // the base, so that a pull finding another state keeps the local version as a
                // copy — unless the entry only makes again what the server had (nothing of it
                // was typed here since), which then takes the server's state.
                let pristine = entry.isPristine
                try link(entry, to: found, remoteID: remoteID, clientID: clientID, base: entry.payload, report: &report)
                if pristine, let values = mapping.values(from: found.attributes, entity: entity),
                   let local = try object(entry.localID), let record = try records.record(local: entry.localID)
                {
                    if try apply(values, to: local) { report.updated += 1 }
                    record.take(version: found.version, served: mapping.attributes(of: values))
                    try context.save()
                }
                report.resolved += 1
                return .next
            }
        }
        outbox.setSent(entry, true)
        try context.save()
        if capabilities.upsert != false {
            do {
                let response = try await send(SyncRequest(.put, resourceURL(clientID),
                                                          body: body(entry.payload, clientID: clientID)))
                try learn { $0.upsert = true }
                try link(entry, to: Self.answeredResource(response), remoteID: clientID, clientID: clientID, report: &report)
                report.pushed += 1
                return .next
            } catch let error as SyncError where Self.refusesUpsert(error) {
                // Nothing was created: the server simply does not create on PUT.
                try learn { $0.upsert = false }
                try context.save()
            } catch let error as SyncError {
                return .stop(error)
            }
        }
        let response: SyncResponse
        do {
            response = try await send(SyncRequest(.post, collection.url, body: body(entry.payload, clientID: clientID),
                                                  idempotencyKey: clientID))
        } catch {
            if Self.isRefusal(error) { outbox.setSent(entry, false) }
            return .stop(error)
        }
        let created = Self.answeredResource(response)
        guard let remoteID = created.id else {
            // Created or not, the next attempt finds out before sending it again.
            return .stop(.unexpectedBody(method: .post, url: collection.url, expected: "the new resource with its id",
                                         found: response.body))
        }
        try link(entry, to: created, remoteID: remoteID, clientID: clientID, report: &report)
        report.pushed += 1
        return .next
    }

    /// Whether an earlier attempt created the object with `clientID`: by its URL where the
    /// server may have created it with a PUT, else in the list, by the client id member or,
    /// from a server that drops that member, by content (a resource no record claims whose
    /// synced attributes are exactly `payload`).
    func findCreated(clientID: String, payload: [String: JSONValue]) async throws(SyncError) -> RemoteResource? {
        if capabilities.upsert != false {
            if let resource = try await fetchResource(clientID) {
                try? learn { $0.upsert = true }
                return resource
            }
            if capabilities.upsert == true { return nil }
        }
        let filtered = capabilities.keepsClientID == true && capabilities.filtersByField != false
        let listed = try await listResources(query: filtered ? [URLQueryItem(name: mapping.clientIDKey, value: clientID)] : [])
        let matching = listed.filter { $0.attributes[mapping.clientIDKey]?.stringValue == clientID }
        if filtered, !listed.isEmpty { try? learn { $0.filtersByField = matching.count == listed.count } }
        if let first = matching.first {
            try? learn { $0.keepsClientID = true }
            return first
        }
        guard capabilities.keepsClientID != true else { return nil }
        let claimed = Set((try? records.all().map(\.remoteID)) ?? [])
        return listed.first { resource in
            guard let id = resource.id, !claimed.contains(id) else { return false }
            return mapping.wireAttributes(from: resource.attributes, entity: entity) == payload
        }
    }

    /// Records that the entry's object is resource `remoteID` and drops the entry, in one
    /// save. The base is what the server answered holding (what was sent, when it answered no
    /// resource); the pull of a later pass confirms it. Another object linked to the same
    /// resource (pulled as new while this one waited: a restore from the Trash) gives way: it
    /// is taken out when it holds what the server had, else it keeps its values as a note of
    /// its own, created on the next pass.
    private func link(_ entry: Outbox.Entry, to resource: RemoteResource, remoteID: String, clientID: String,
                      base: [String: JSONValue]? = nil, report: inout SyncReport) throws {
        let served = resource.attributes.isEmpty ? nil : mapping.wireAttributes(from: resource.attributes, entity: entity)
        try learn { capabilities in
            if resource.version != nil { capabilities.versions = true }
            if served != nil { capabilities.keepsClientID = resource.attributes[mapping.clientIDKey] == .string(clientID) }
        }
        if let other = try records.record(remote: remoteID), other.localID != entry.localID {
            if other.clientID == clientID {
                // Another local copy of this very resource (pulled while a restore waited).
                if let object = try object(other.localID), mapping.attributes(of: object) == other.base {
                    try context.delete(object)
                }
                try context.delete(other.object)
            } else {
                // The id was given again (a server restored from a backup): the other record's
                // resource is gone.
                var known = KnownRecords([other], entries: [])
                try gone(other, known: &known, report: &report)
            }
            try context.save()
        }
        try records.set(local: entry.localID, remoteID: remoteID, version: resource.version,
                        base: base ?? stored(resource, sent: entry.payload), clientID: clientID, listed: false,
                        uncertain: entry.wasSent)
        writtenThisPass.insert(entry.localID)
        try context.delete(entry.object)
        try context.save()
    }

    /// Whether a failed upsert means the server does not create on PUT (rather than that
    /// it failed or refused for another reason).
    static func refusesUpsert(_ error: SyncError) -> Bool {
        guard case .httpStatus(_, _, let status, _) = error else { return false }
        return [400, 404, 405, 410, 422, 501].contains(status)
    }

    /// Whether the server answered and refused the request (a 4xx other than 408 and 429):
    /// it did not act on it.
    static func isRefusal(_ error: SyncError) -> Bool {
        guard case .httpStatus(_, _, let status, _) = error else { return false }
        return (400..<500).contains(status) && status != 408 && status != 429
    }
}
