import Foundation
import Logging
import TrellisCore

/// JSON over HTTP with URLSession (iStructure's `ISBasicSync`), through `HTTPLibrary` (a
/// library loaded on the first request, so that an app that never syncs never loads
/// FoundationNetworking).
///
/// ```swift
/// let sync = BasicSync(settings: SyncSettings(bearerToken: "s3cret", timeout: 10), bus: bus)
/// let created = try await sync.send(SyncRequest(.post, notesURL, body: ["title": "Shopping"]))
/// let id = created.body["id"]     // assigned by the server
/// let version = created.version   // from the ETag header
/// ```
///
/// - **Every attempt is announced**: `network:on` before it is sent and `network:off` after
///   its outcome, whatever it is (an answer, an HTTP error, a timeout, a refused connection,
///   a malformed body, a cancellation), so the `net_state` service's count always returns
///   to zero. Both carry `{"method", "url", "attempt"}`; `network:off` adds `"outcome"`
///   (`"200"`, `"500"`, `"timed out"`, `"unreachable"`, `"malformed JSON"`, `"cancelled"`...).
///   A URL refused by ``SyncSettings/check(_:for:)`` sends nothing and announces nothing.
/// - **Timeouts** are per attempt and measured here: FoundationNetworking on Linux rounds
///   `URLRequest.timeoutInterval` down to whole seconds (0.5 s fails at once), so the
///   request only gets that as a backstop, a second later.
/// - **Retries**: GET, PUT and DELETE are sent again after a transient failure (see
///   ``SyncError/isTransient``), up to ``SyncSettings/retries`` times, waiting
///   ``SyncSettings/delay(beforeRetry:)`` between attempts. POST and PATCH are never repeated.
/// - **Requests** carry `Accept: application/json`, a JSON body with
///   `Content-Type: application/json`, `Authorization: Bearer <token>` when a token is set,
///   `If-Match: "<version>"` for conditional writes, `If-None-Match` for conditional reads
///   (a `304` answer is a ``SyncResponse`` with status 304 and no body) and `Idempotency-Key`
///   when the request has a key.
/// - **Redirects** are never followed blindly (a PUT answered 301 must not become a GET):
///   one redirect to the same server (scheme, host and port) is followed with the same
///   method and body; when it only added a trailing slash (Django's `APPEND_SLASH`, DRF's
///   default router), every later request to that server gets the slash from the start. A
///   redirect elsewhere, or a second one, is an error (the token is never sent to another host).
/// - **Time** (the timeout, the waits between retries) comes from `clock`, so a test crosses
///   a timeout or a backoff by advancing its own clock.
public final class BasicSync: Sync {
    /// How requests are sent.
    public let settings: SyncSettings
    private let bus: EventBus?
    /// The transport library (``HTTPLibrary/shared`` but in tests), asked for on each request.
    private let transport: @Sendable () -> Result<HTTPLibrary, HTTPLibrary.LoadError>
    private let logger = Logger(trellis: "trellis.sync.http")
    /// Where timeouts and the waits between retries are measured.
    private let clock: any Clock<Duration>
    /// The servers (`scheme://host:port`) seen to want a trailing slash on every path.
    private let slashedServers = LockedState<Set<String>>([])

    /// A sync that announces network activity on `bus` (if given), timing its requests on
    /// `clock`.
    public convenience init(settings: SyncSettings = SyncSettings(), bus: EventBus? = nil,
                            clock: any Clock<Duration> = ContinuousClock()) {
        self.init(settings: settings, bus: bus, clock: clock, transport: { HTTPLibrary.shared })
    }

    init(settings: SyncSettings, bus: EventBus?, clock: any Clock<Duration> = ContinuousClock(),
         transport: @escaping @Sendable () -> Result<HTTPLibrary, HTTPLibrary.LoadError>) {
        self.settings = settings
        self.bus = bus
        self.clock = clock
        self.transport = transport
    }

    /// Checks the URL, then sends the request with the retries its method allows.
    public func send(_ request: SyncRequest) async throws(SyncError) -> SyncResponse {
        try settings.check(request.url, for: request.method)
        var request = request
        request.url = withRememberedSlash(request.url)
        let attempts = request.method.isIdempotent ? settings.retries + 1 : 1
        var attempt = 1
        while true {
            do {
                return try await send(request, attempt: attempt)
            } catch {
                guard attempt < attempts, error.isTransient else { throw error }
                let delay = settings.delay(beforeRetry: attempt)
                logger.debug("retrying", metadata: ["request": "\(request.method) \(request.url.absoluteString)",
                                                   "after": "\(delay) s", "error": "\(error)"])
                do {
                    try await clock.sleep(for: .seconds(delay))
                } catch {
                    throw .cancelled(method: request.method, url: request.url)
                }
                attempt += 1
            }
        }
    }

    /// One attempt, between `network:on` and `network:off`.
    private func send(_ request: SyncRequest, attempt: Int) async throws(SyncError) -> SyncResponse {
        let details: JSONValue = ["method": .string(request.method.rawValue), "url": .string(request.url.absoluteString),
                                  "attempt": .number(Double(attempt))]
        bus?.trigger(NetworkActivity.on, details, from: self)
        let outcome: Result<SyncResponse, SyncError>
        do {
            var answer = try await exchange(request)
            if let target = redirectTarget(of: answer) {
                var redirected = request
                redirected.url = target
                answer = try await exchange(redirected)
            }
            outcome = .success(try answer.result())
        } catch {
            outcome = .failure(error)
        }
        var finished = details
        finished["outcome"] = .string(Self.summary(of: outcome))
        bus?.trigger(NetworkActivity.off, finished, from: self)
        logger.debug("request finished", metadata: ["request": "\(request.method) \(request.url.absoluteString)",
                                                    "attempt": "\(attempt)", "outcome": "\(Self.summary(of: outcome))"])
        return try outcome.get()
    }

    /// Sends the request and waits for the whole answer, at most ``SyncSettings/timeout``.
    private func exchange(_ request: SyncRequest) async throws(SyncError) -> HTTPAnswer {
        let (method, url) = (request.method, request.url)
        let library: HTTPLibrary
        switch transport() {
        case .success(let loaded): library = loaded
        case .failure(let error): throw .transport(method: method, url: url, reason: error.description)
        }
        let transportRequest = makeTransportRequest(request)
        let (timeout, clock) = (settings.timeout, clock)
        let answer = await withTaskGroup(of: HTTPLibrary.Answer?.self) { group in
            group.addTask { await library.exchange(transportRequest) }
            group.addTask {
                // Cancelled (when the answer comes first) is not a timeout.
                do { try await clock.sleep(for: .seconds(timeout)) } catch { return .cancelled }
                return nil
            }
            defer { group.cancelAll() }
            return await group.next() ?? .cancelled
        }
        switch answer {
        case .answered(let status, let etag, let location, let body)?:
            return HTTPAnswer(request: request, data: body, status: status, etag: etag, location: location)
        case nil, .timedOut?:
            throw .timedOut(method: method, url: url, seconds: timeout)
        case .cancelled?:
            throw .cancelled(method: method, url: url)
        case .unreachable(let reason)?:
            throw .unreachable(method: method, url: url, reason: reason)
        case .failed(let reason)?:
            throw .transport(method: method, url: url, reason: reason)
        }
    }

    private func makeTransportRequest(_ request: SyncRequest) -> HTTPLibrary.Request {
        var headers = [(name: "Accept", value: "application/json")]
        var body: Data?
        if let json = request.body {
            body = json.jsonData()
            headers.append((name: "Content-Type", value: "application/json; charset=utf-8"))
        }
        if let token = settings.bearerToken {
            headers.append((name: "Authorization", value: "Bearer \(token)"))
        }
        if let version = request.ifMatch {
            headers.append((name: "If-Match", value: "\"\(version)\""))
        }
        if let version = request.ifNoneMatch {
            headers.append((name: "If-None-Match", value: "\"\(version)\""))
        }
        if let key = request.idempotencyKey {
            headers.append((name: "Idempotency-Key", value: key))
        }
        // URLSession's timeout is a backstop only: see the type's documentation.
        return HTTPLibrary.Request(method: request.method.rawValue, url: request.url.absoluteString, headers: headers,
                                   body: body, timeout: settings.timeout.rounded(.up) + 1)
    }

    /// Where a redirect answer may be followed: the same server only (the request carries the
    /// token); one that only adds a trailing slash is remembered for the server.
    private func redirectTarget(of answer: HTTPAnswer) -> URL? {
        guard [301, 302, 303, 307, 308].contains(answer.status), let location = answer.location,
              let target = URL(string: location, relativeTo: answer.request.url)?.absoluteURL,
              let origin = Self.origin(of: answer.request.url), Self.origin(of: target) == origin
        else { return nil }
        // URL.path drops a trailing slash: the components keep it.
        let path = URLComponents(url: answer.request.url, resolvingAgainstBaseURL: false)?.percentEncodedPath ?? ""
        let targetPath = URLComponents(url: target, resolvingAgainstBaseURL: false)?.percentEncodedPath
        if !path.hasSuffix("/"), targetPath == path + "/" {
            let isNew = slashedServers.withLock { $0.insert(origin).inserted }
            if isNew {
                logger.info("the server wants a trailing slash on its paths: added from now on",
                            metadata: ["server": "\(origin)"])
            }
        }
        return target
    }

    /// `url` with a trailing slash on its path when its server wants one.
    private func withRememberedSlash(_ url: URL) -> URL {
        guard let origin = Self.origin(of: url), slashedServers.withLock({ $0.contains(origin) }),
              var components = URLComponents(url: url, resolvingAgainstBaseURL: false),
              !components.percentEncodedPath.hasSuffix("/")
        else { return url }
        components.percentEncodedPath += "/"
        return components.url ?? url
    }

    /// `scheme://host:port` of `url`.
    private static func origin(of url: URL) -> String? {
        guard let scheme = url.scheme?.lowercased(), let host = url.host?.lowercased() else { return nil }
        let port = url.port ?? (scheme == "https" ? 443 : 80)
        return "\(scheme)://\(host):\(port)"
    }

    private static func summary(of outcome: Result<SyncResponse, SyncError>) -> String {
        switch outcome {
        case .success(let response): return String(response.status)
        case .failure(.httpStatus(_, _, let status, _)): return String(status)
        case .failure(.timedOut): return "timed out"
        case .failure(.unreachable): return "unreachable"
        case .failure(.malformedJSON): return "malformed JSON"
        case .failure(.unexpectedBody): return "unexpected body"
        case .failure(.cancelled): return "cancelled"
        case .failure(.refusedURL): return "refused"
        case .failure(.transport): return "transport error"
        }
    }
}

