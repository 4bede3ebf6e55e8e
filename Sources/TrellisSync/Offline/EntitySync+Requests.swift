import Foundation
import TrellisCore
import TrellisStore

/// The single-resource requests of a pass, and reading their answers.
extension EntitySync {
    /// Sends `request` through the collection's ``Sync``.
    func send(_ request: SyncRequest) async throws(SyncError) -> SyncResponse {
        try await collection.sync.send(request)
    }

    /// The URL of resource `id`.
    func resourceURL(_ id: String) -> URL {
        collection.url.appendingResourceID(id)
    }

    /// `GET <collection>/<id>`: the resource, or `nil` when the server answers 404 or 410.
    func fetchResource(_ id: String) async throws(SyncError) -> RemoteResource? {
        let url = resourceURL(id)
        let response: SyncResponse
        do {
            response = try await send(SyncRequest(.get, url))
        } catch {
            if Self.isGone(error) { return nil }
            throw error
        }
        guard let resource = RemoteResource(json: response.body, etagVersion: response.version) else {
            throw .unexpectedBody(method: .get, url: url, expected: "a resource object", found: response.body)
        }
        return resource
    }

    /// `GET <collection>[?<query>]`: the resources listed (those with an id).
    func listResources(query: [URLQueryItem] = []) async throws(SyncError) -> [RemoteResource] {
        var url = collection.url
        if !query.isEmpty, var components = URLComponents(url: url, resolvingAgainstBaseURL: false) {
            components.queryItems = query
            url = components.url ?? url
        }
        let response = try await send(SyncRequest(.get, url))
        guard let items = response.body.arrayValue else {
            throw .unexpectedBody(method: .get, url: url, expected: "an array of resources", found: response.body)
        }
        return items.compactMap { RemoteResource(json: $0) }.filter { $0.id != nil }
    }

    /// The body of a write: the synced attributes, and the client id the resource carries.
    func body(_ payload: [String: JSONValue], clientID: String?) -> JSONValue {
        var body = payload
        if let clientID { body[mapping.clientIDKey] = .string(clientID) }
        return .object(body)
    }

    /// The resource in a write's answer: its body when it is a resource object, else only
    /// the version of its `ETag` (an empty answer).
    static func answeredResource(_ response: SyncResponse) -> RemoteResource {
        RemoteResource(json: response.body, etagVersion: response.version)
            ?? RemoteResource(id: nil, version: response.version, attributes: [:])
    }

    /// Whether the server said the resource does not exist (404, 410).
    static func isGone(_ error: SyncError) -> Bool {
        guard case .httpStatus(_, _, let status, _) = error else { return false }
        return status == 404 || status == 410
    }

    /// Whether the server refused the write because the resource changed (409, 412).
    static func isConflict(_ error: SyncError) -> Bool {
        guard case .httpStatus(_, _, let status, _) = error else { return false }
        return status == 409 || status == 412
    }
}
