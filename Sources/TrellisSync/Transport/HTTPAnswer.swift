import Foundation
import TrellisCore

/// An HTTP answer read as the REST contract says: a 2xx status with a JSON body (or none)
/// is a ``SyncResponse``; anything else is a ``SyncError``.
struct HTTPAnswer {
    let request: SyncRequest
    let data: Data
    let status: Int
    /// The `ETag` header, if any.
    let etag: String?
    /// The `Location` header, if any (a redirect's target).
    var location: String?

    func result() throws(SyncError) -> SyncResponse {
        let source = "\(request.method) \(request.url.absoluteString) (HTTP \(status))"
        if status == 304, request.ifNoneMatch != nil {
            return SyncResponse(status: status, body: .null, version: request.ifNoneMatch)
        }
        guard (200..<300).contains(status) else {
            throw .httpStatus(method: request.method, url: request.url, status: status, body: errorBody(source: source))
        }
        let version = etag.flatMap(SyncResponse.version(fromETag:))
        let digest = data.isEmpty ? nil : SyncResponse.digest(of: data)
        if version == nil, let digest, digest == request.knownBodyDigest {
            return SyncResponse(status: status, body: .null, bodyDigest: digest)
        }
        let body: JSONValue
        if data.isEmpty || status == 204 {
            body = .null
        } else {
            do {
                body = try JSONValue(jsonData: data, source: source)
            } catch let error as JSONValueError {
                throw .malformedJSON(method: request.method, url: request.url, status: status, parseError: error)
            } catch {
                throw .malformedJSON(method: request.method, url: request.url, status: status,
                                     parseError: .malformed(source: source, reason: String(describing: error)))
            }
        }
        return SyncResponse(status: status, body: body, version: version, bodyDigest: digest)
    }

    /// An error answer's body: its JSON, else its text (shortened), else null.
    private func errorBody(source: String) -> JSONValue {
        guard !data.isEmpty else { return .null }
        if let json = try? JSONValue(jsonData: data, source: source) { return json }
        return .string(String(decoding: data.prefix(1_000), as: UTF8.self))
    }
}
