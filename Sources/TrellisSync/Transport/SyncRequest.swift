import Foundation
import TrellisCore

/// One JSON request of a ``Sync``: a method, a URL, an optional JSON body and, for
/// conditional writes, the server version the change is based on.
///
/// ```swift
/// let request = SyncRequest(.put, URL(string: "https://notes.example/notes/7")!,
///                           body: ["title": "Shopping"], ifMatch: "3")
/// ```
public struct SyncRequest: Sendable, Hashable {
    /// The HTTP methods the REST contract uses.
    public enum Method: String, Sendable, Hashable, CaseIterable, CustomStringConvertible {
        case get = "GET"
        case post = "POST"
        case put = "PUT"
        case patch = "PATCH"
        case delete = "DELETE"

        /// Whether repeating the request has the same effect as sending it once (RFC 9110
        /// §9.2.2): GET, PUT and DELETE are; POST and PATCH are not, so they are never retried.
        public var isIdempotent: Bool {
            switch self {
            case .get, .put, .delete: return true
            case .post, .patch: return false
            }
        }

        public var description: String { rawValue }
    }

    /// The HTTP method.
    public var method: Method
    /// The resource or collection URL.
    public var url: URL
    /// The JSON body; `nil` sends none.
    public var body: JSONValue?
    /// The server version the request is based on, sent as `If-Match: "<version>"`: the
    /// server answers 412 when its version differs.
    public var ifMatch: String?
    /// Sent as `Idempotency-Key: <key>`: a server that honours the header answers a repeated
    /// request with the same key as it answered the first, without acting twice.
    public var idempotencyKey: String?
    /// The version the client holds, sent as `If-None-Match: "<version>"` on a GET: a server
    /// that checks it answers 304 (a ``SyncResponse`` with status 304, no body and this
    /// version) when nothing changed.
    public var ifNoneMatch: String?
    /// The ``SyncResponse/bodyDigest`` of an answer the client holds already, for a server
    /// that sends no `ETag`: an answer without one whose body has this digest is not parsed
    /// (``SyncResponse/body`` is `.null`, ``SyncResponse/bodyDigest`` is this). ``EntitySync``
    /// sends the digest of the last list it took in whole when nothing else could have changed.
    /// A transport that cannot tell may parse the body all the same.
    public var knownBodyDigest: String?

    /// A request of `method` to `url`.
    public init(_ method: Method, _ url: URL, body: JSONValue? = nil, ifMatch: String? = nil,
                idempotencyKey: String? = nil, ifNoneMatch: String? = nil, knownBodyDigest: String? = nil)
    {
        self.method = method
        self.url = url
        self.body = body
        self.ifMatch = ifMatch
        self.idempotencyKey = idempotencyKey
        self.ifNoneMatch = ifNoneMatch
        self.knownBodyDigest = knownBodyDigest
    }
}

/// A successful (2xx) answer to a ``SyncRequest``.
public struct SyncResponse: Sendable, Hashable {
    /// The HTTP status code, in `200..<300`, or 304 to a request with ``SyncRequest/ifNoneMatch``.
    public var status: Int
    /// The parsed JSON body; `.null` for an empty body (204 No Content).
    public var body: JSONValue
    /// The resource version from the `ETag` header (quotes and a weak `W/` prefix removed),
    /// if the server sent one.
    public var version: String?
    /// A digest of the body as it came (its length and 64-bit FNV-1a hash), when the transport
    /// read its bytes: an answer the same, byte for byte, as an earlier one has the same digest.
    /// ``EntitySync`` tells by it that a list from a server without `ETag`s has not changed.
    public var bodyDigest: String?

    /// An answer with this status, body, version and body digest.
    public init(status: Int, body: JSONValue, version: String? = nil, bodyDigest: String? = nil) {
        self.status = status
        self.body = body
        self.version = version
        self.bodyDigest = bodyDigest
    }

    /// The ``bodyDigest`` of `data`.
    static func digest(of data: Data) -> String {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        data.withUnsafeBytes { bytes in
            for byte in bytes {
                hash = (hash ^ UInt64(byte)) &* 0x0000_0100_0000_01B3
            }
        }
        return "\(data.count)-\(String(hash, radix: 16))"
    }

    /// The version in an `ETag` header value: `"3"`, `W/"3"` and `3` all give `3`.
    public static func version(fromETag etag: String) -> String? {
        var text = etag.trimmingCharacters(in: .whitespaces)
        if text.hasPrefix("W/") { text.removeFirst(2) }
        if text.count >= 2, text.hasPrefix("\""), text.hasSuffix("\"") { text = String(text.dropFirst().dropLast()) }
        return text.isEmpty ? nil : text
    }
}
