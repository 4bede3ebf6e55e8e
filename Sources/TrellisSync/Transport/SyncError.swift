import Foundation
import TrellisCore

/// Why a ``Sync`` request failed. Every case names the method and URL; HTTP errors carry
/// the status and the server's body (described readably: the status's reason phrase and a
/// plain-text excerpt of the body, an HTML error page as the text it shows), malformed
/// answers the parse error.
///
/// ```swift
/// do {
///     _ = try await sync.send(SyncRequest(.get, url))
/// } catch .httpStatus(_, _, let status, _) where status == 404 {
///     // gone
/// } catch let error where error.isOffline {
///     // keep the edit queued; try again later
/// }
/// ```
public enum SyncError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The server answered with a status outside 2xx; `body` is its JSON (or text) body.
    case httpStatus(method: SyncRequest.Method, url: URL, status: Int, body: JSONValue)
    /// No answer within the per-request timeout (after the retries idempotent requests get).
    case timedOut(method: SyncRequest.Method, url: URL, seconds: Double)
    /// The server could not be reached: connection refused or lost, host not found.
    case unreachable(method: SyncRequest.Method, url: URL, reason: String)
    /// A 2xx answer whose body is not JSON.
    case malformedJSON(method: SyncRequest.Method, url: URL, status: Int, parseError: JSONValueError)
    /// A JSON answer of the wrong shape, e.g. a number where a note object was expected.
    case unexpectedBody(method: SyncRequest.Method, url: URL, expected: String, found: JSONValue)
    /// The task sending the request was cancelled.
    case cancelled(method: SyncRequest.Method, url: URL)
    /// The URL is refused before anything is sent: plain HTTP to a host that is neither
    /// loopback nor allowed in ``SyncSettings/allowInsecureHosts``, or a scheme that is not
    /// HTTP(S).
    case refusedURL(method: SyncRequest.Method, url: URL, reason: String)
    /// Any other transport failure reported by URLSession.
    case transport(method: SyncRequest.Method, url: URL, reason: String)

    /// The method of the failed request.
    public var method: SyncRequest.Method {
        switch self {
        case .httpStatus(let method, _, _, _), .timedOut(let method, _, _), .unreachable(let method, _, _),
            .malformedJSON(let method, _, _, _), .unexpectedBody(let method, _, _, _), .cancelled(let method, _),
            .refusedURL(let method, _, _), .transport(let method, _, _):
            return method
        }
    }

    /// The URL of the failed request.
    public var url: URL {
        switch self {
        case .httpStatus(_, let url, _, _), .timedOut(_, let url, _), .unreachable(_, let url, _),
            .malformedJSON(_, let url, _, _), .unexpectedBody(_, let url, _, _), .cancelled(_, let url),
            .refusedURL(_, let url, _), .transport(_, let url, _):
            return url
        }
    }

    /// The HTTP status, for errors that got an answer.
    public var status: Int? {
        switch self {
        case .httpStatus(_, _, let status, _), .malformedJSON(_, _, let status, _): return status
        default: return nil
        }
    }

    /// Whether the server could not be reached or did not answer: nothing is wrong with
    /// the request, it should simply be sent again later.
    public var isOffline: Bool {
        switch self {
        case .timedOut, .unreachable, .transport: return true
        default: return false
        }
    }

    /// Whether sending the same idempotent request again may succeed: the server was
    /// unreachable or slow, overloaded (5xx other than 501) or rate-limiting (429).
    public var isTransient: Bool {
        if isOffline { return true }
        guard case .httpStatus(_, _, let status, _) = self else { return false }
        return status == 429 || (500...599).contains(status) && status != 501
    }

    public var description: String {
        let request = "\(method) \(url.absoluteString)"
        switch self {
        case .httpStatus(_, _, let status, let body):
            // Readable: "…: the server answered HTTP 502: Bad Gateway: <the page's text>".
            let detail = [HTTPErrorText.reasonPhrase(status), HTTPErrorText.excerpt(of: body)].compactMap { $0 }
            return "\(request): the server answered HTTP \(status)" + detail.map { ": " + $0 }.joined()
        case .timedOut(_, _, let seconds):
            return "\(request): no answer within \(seconds) s"
        case .unreachable(_, _, let reason):
            return "\(request): the server cannot be reached: \(reason)"
        case .malformedJSON(_, _, let status, let parseError):
            return "\(request): HTTP \(status) with a body that is not JSON: \(parseError)"
        case .unexpectedBody(_, _, let expected, let found):
            return "\(request): expected \(expected) in the answer, found \(found.jsonString.prefix(200))"
        case .cancelled:
            return "\(request): cancelled"
        case .refusedURL(_, _, let reason):
            return "\(request): refused: \(reason)"
        case .transport(_, _, let reason):
            return "\(request): \(reason)"
        }
    }
}
