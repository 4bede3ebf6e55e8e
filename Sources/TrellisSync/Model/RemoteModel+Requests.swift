import Foundation
import TrellisCore

/// How ``RemoteModel/save(_:)`` sends the model.
public enum SaveMode: Sendable, Hashable {
    /// POST to the collection when the model is new, else PUT every attribute to its URL.
    case full
    /// PATCH only ``RemoteModel/changedAttributes`` (a new model is POSTed in full).
    case patch
}

/// The model's requests: each triggers `model:request`, then `model:sync` on success or
/// `model:error` on failure (and throws ``ModelError/sync(_:)``).
extension RemoteModel {
    /// Reads the resource from the server (GET) and takes its attributes and version.
    public func fetch() async throws(ModelError) {
        let response = try await send(SyncRequest(.get, url))
        try take(response, of: .get)
        trigger(ModelEvents.sync, ["method": "GET", "status": .number(Double(response.status))])
    }

    /// Validates, then sends the model: POST when new (the answer gives the id and version),
    /// PUT or PATCH otherwise, conditional on the known ``version``. The server's answer (the
    /// resource as stored) is set on the model, as Backbone does; an empty answer confirms
    /// the attributes sent.
    ///
    /// - Throws: ``ModelError/invalid(url:reason:)`` before anything is sent when the
    ///   validation hook rejects the attributes; ``ModelError/sync(_:)`` when the request fails
    ///   (e.g. HTTP 412 when the server's version moved on). The attributes are kept either way.
    public func save(_ mode: SaveMode = .full) async throws(ModelError) {
        try check(attributes)
        let request: SyncRequest
        if isNew {
            request = SyncRequest(.post, collectionURL, body: .object(attributes))
        } else if mode == .patch {
            request = SyncRequest(.patch, url, body: .object(changedAttributes), ifMatch: version)
        } else {
            request = SyncRequest(.put, url, body: .object(attributes), ifMatch: version)
        }
        let response = try await send(request)
        if response.body.isNull {
            confirm(version: response.version)
        } else {
            try take(response, of: request.method)
        }
        trigger(ModelEvents.sync, ["method": .string(request.method.rawValue),
                                   "status": .number(Double(response.status))])
    }

    /// Deletes the resource on the server (DELETE, conditional on the known ``version``),
    /// then triggers `model:destroy` and leaves its collection. A new model is only dropped
    /// locally.
    public func destroy() async throws(ModelError) {
        guard !isNew else {
            trigger(ModelEvents.destroy)
            collection?.remove(self)
            return
        }
        let response = try await send(SyncRequest(.delete, url, ifMatch: version))
        trigger(ModelEvents.destroy)
        trigger(ModelEvents.sync, ["method": "DELETE", "status": .number(Double(response.status))])
        collection?.remove(self)
    }

    /// Sends `request` through ``sync`` between `model:request` and `model:sync`/`model:error`.
    private func send(_ request: SyncRequest) async throws(ModelError) -> SyncResponse {
        trigger(ModelEvents.request, ["method": .string(request.method.rawValue)])
        do {
            return try await sync.send(request)
        } catch {
            announceFailure(error)
            throw .sync(error)
        }
    }

    /// Takes a resource answer; an answer that is not a resource object is an error.
    private func take(_ response: SyncResponse, of method: SyncRequest.Method) throws(ModelError) {
        guard let resource = RemoteResource(json: response.body, etagVersion: response.version) else {
            let error = SyncError.unexpectedBody(method: method, url: url, expected: "a resource object",
                                                 found: response.body)
            announceFailure(error)
            throw .sync(error)
        }
        apply(resource)
    }

    private func announceFailure(_ error: SyncError) {
        var data: [String: JSONValue] = ["method": .string(error.method.rawValue), "error": .string(error.description)]
        if let status = error.status { data["status"] = .number(Double(status)) }
        trigger(ModelEvents.error, data)
    }
}
