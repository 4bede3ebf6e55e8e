import Foundation
import Logging
import TrellisCore

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// JSON over HTTP with URLSession (iStructure's `ISBasicSync`).
///
/// ```swift
/// let sync = BasicSync(settings: SyncSettings(bearerToken: "s3cret", timeout: 10), bus: bus)
/// let created = try await sync.send(SyncRequest(.post, notesURL, body: ["title": "Shopping"]))
/// created.body["id"]       // assigned by the server
/// created.version          // from the ETag header
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
///   and `If-Match: "<version>"` for conditional writes.
public final class BasicSync: Sync {
    /// How requests are sent.
    public let settings: SyncSettings
    private let bus: EventBus?
    private let session: URLSession
    private let logger = Logger(label: "trellis.sync.http")

    /// A sync that announces network activity on `bus` (if given).
    public init(settings: SyncSettings = SyncSettings(), bus: EventBus? = nil) {
        self.settings = settings
        self.bus = bus
        let configuration = URLSessionConfiguration.ephemeral
        configuration.requestCachePolicy = .reloadIgnoringLocalCacheData
        configuration.urlCache = nil
        configuration.httpCookieStorage = nil
        session = URLSession(configuration: configuration)
    }

    deinit {
        session.finishTasksAndInvalidate()
    }

    /// Checks the URL, then sends the request with the retries its method allows.
    public func send(_ request: SyncRequest) async throws(SyncError) -> SyncResponse {
        try settings.check(request.url, for: request.method)
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
                    try await Task.sleep(for: .seconds(delay))
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
        bus?.trigger(NetworkActivityService.networkOn, details, from: self)
        let outcome: Result<SyncResponse, SyncError>
        do {
            let (data, response) = try await exchange(request)
            outcome = .success(try HTTPAnswer(request: request, data: data, response: response).result())
        } catch {
            outcome = .failure(error)
        }
        var finished = details
        finished["outcome"] = .string(Self.summary(of: outcome))
        bus?.trigger(NetworkActivityService.networkOff, finished, from: self)
        logger.debug("request finished", metadata: ["request": "\(request.method) \(request.url.absoluteString)",
                                                    "attempt": "\(attempt)", "outcome": "\(Self.summary(of: outcome))"])
        return try outcome.get()
    }

    /// Sends the request and waits for the whole answer, at most ``SyncSettings/timeout``.
    private func exchange(_ request: SyncRequest) async throws(SyncError) -> (Data, HTTPURLResponse) {
        let urlRequest = makeURLRequest(request)
        let session = self.session
        let timeout = settings.timeout
        do {
            return try await withThrowingTaskGroup(of: (Data, URLResponse)?.self) { group in
                group.addTask { try await Self.load(urlRequest, with: session) }
                group.addTask {
                    try await Task.sleep(for: .seconds(timeout))
                    return nil
                }
                defer { group.cancelAll() }
                guard let first = try await group.next(), let (data, response) = first else {
                    throw SyncError.timedOut(method: request.method, url: request.url, seconds: timeout)
                }
                guard let http = response as? HTTPURLResponse else {
                    throw SyncError.transport(method: request.method, url: request.url, reason: "the answer is not HTTP")
                }
                return (data, http)
            }
        } catch let error as SyncError {
            throw error
        } catch {
            throw Self.map(error, request: request, timeout: timeout)
        }
    }

    /// One data task, cancellable from Swift concurrency.
    ///
    /// Not `URLSession.data(for:)`: on Linux (swift-corelibs-foundation) it cancels its task
    /// synchronously inside the task's cancellation handler, where `URLSessionTask.cancel()`
    /// waits for the session's work queue, while that queue, finishing the transfer, waits
    /// for the same Swift task's status lock to resume it: a deadlock (two threads stuck
    /// for good, found under ThreadSanitizer's slowdown in `TrellisSyncTests`). Here the
    /// cancellation handler hands `cancel()` to another queue and returns at once.
    private static func load(_ request: URLRequest, with session: URLSession) async throws -> (Data, URLResponse) {
        let handle = CancellableDataTask()
        return try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { continuation in
                let task = session.dataTask(with: request) { data, response, error in
                    if let error {
                        continuation.resume(throwing: error)
                    } else if let response {
                        continuation.resume(returning: (data ?? Data(), response))
                    } else {
                        continuation.resume(throwing: URLError(.badServerResponse))
                    }
                }
                handle.start(task)
            }
        } onCancel: {
            handle.cancel()
        }
    }

    private func makeURLRequest(_ request: SyncRequest) -> URLRequest {
        var urlRequest = URLRequest(url: request.url)
        urlRequest.httpMethod = request.method.rawValue
        // A backstop only: see the type's documentation.
        urlRequest.timeoutInterval = settings.timeout.rounded(.up) + 1
        urlRequest.setValue("application/json", forHTTPHeaderField: "Accept")
        if let body = request.body {
            urlRequest.httpBody = body.jsonData()
            urlRequest.setValue("application/json; charset=utf-8", forHTTPHeaderField: "Content-Type")
        }
        if let token = settings.bearerToken {
            urlRequest.setValue("Bearer \(token)", forHTTPHeaderField: "Authorization")
        }
        if let version = request.ifMatch {
            urlRequest.setValue("\"\(version)\"", forHTTPHeaderField: "If-Match")
        }
        return urlRequest
    }

    /// A URLSession (or task) error as a ``SyncError``.
    private static func map(_ error: any Error, request: SyncRequest, timeout: TimeInterval) -> SyncError {
        let (method, url) = (request.method, request.url)
        if error is CancellationError { return .cancelled(method: method, url: url) }
        guard let urlError = error as? URLError else {
            return .transport(method: method, url: url, reason: String(describing: error))
        }
        let reason = (urlError.userInfo[NSLocalizedDescriptionKey] as? String) ?? "URL error \(urlError.code.rawValue)"
        switch urlError.code {
        case .cancelled:
            return .cancelled(method: method, url: url)
        case .timedOut:
            return .timedOut(method: method, url: url, seconds: timeout)
        case .cannotConnectToHost, .cannotFindHost, .networkConnectionLost, .notConnectedToInternet, .dnsLookupFailed:
            return .unreachable(method: method, url: url, reason: reason)
        default:
            return .transport(method: method, url: url, reason: reason)
        }
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

/// A data task that may be cancelled before or after it starts; `cancel()` never blocks.
private final class CancellableDataTask: Sendable {
    private enum State {
        case waiting
        case running(URLSessionDataTask)
        case cancelled
    }

    private let state = LockedState<State>(.waiting)

    /// Starts `task`, or cancels it at once when `cancel()` came first (it then completes
    /// with `URLError.cancelled`).
    func start(_ task: URLSessionDataTask) {
        let cancelled = state.withLock { state -> Bool in
            if case .cancelled = state { return true }
            state = .running(task)
            return false
        }
        task.resume()
        if cancelled { Self.cancelLater(task) }
    }

    func cancel() {
        let running = state.withLock { state -> URLSessionDataTask? in
            defer { state = .cancelled }
            if case .running(let task) = state { return task }
            return nil
        }
        if let running { Self.cancelLater(running) }
    }

    /// `URLSessionTask.cancel()` waits for the session's work queue: never call it while
    /// holding anything that queue may wait for.
    private static func cancelLater(_ task: URLSessionDataTask) {
        DispatchQueue.global().async { task.cancel() }
    }
}
