import FlyingFox
import FlyingSocks
import Foundation
import TrellisCore
@testable import TrellisSync

/// A scripted HTTP proxy on 127.0.0.1 in front of a REST server, which injects faults into
/// chosen requests: the server's work done but its answer lost, 5xx and 429 answers,
/// malformed bodies, another client's edit just before a write, a request held back.
///
/// ```swift
/// let proxy = try await FaultProxy.start(backend: server.baseURL)
/// proxy.inject(.forwardThenHang, on: "PUT")    // the next PUT lands, its answer never comes
/// proxy.inject(.answer(503))                   // the next request gets 503 without reaching the server
/// ```
final class FaultProxy: Sendable {
    enum Fault: Sendable {
        /// Answer `status` without forwarding.
        case answer(Int)
        /// Forward, then answer `status` whatever the server said (its work is done).
        case forwardThenAnswer(Int)
        /// Forward, then never answer: the client times out with the server's work done.
        case forwardThenHang
        /// Forward, then answer 200 with a body that is not JSON.
        case forwardThenMalformed
        /// Forward only once `gate` opens (the client has long given up), never answer.
        case holdUntil(Gate)
        /// Run `action` (another client's write, killing the server), then forward.
        case before(@Sendable () async throws -> Void)
        /// Forward, then answer the server's status with `change` applied to its body: a
        /// list cut short or emptied, items missing members.
        case rewriteAnswer(@Sendable (TrellisCore.JSONValue) -> TrellisCore.JSONValue)
        /// Answer `302 Found` to `location` without forwarding.
        case redirect(to: String)
    }

    /// A gate a held request waits at.
    final class Gate: Sendable {
        private let state = LockedState<(open: Bool, waiting: [CheckedContinuation<Void, Never>])>((false, []))

        func open() {
            for waiting in state.withLock({ state in defer { state = (true, []) }; return state.waiting }) {
                waiting.resume()
            }
        }

        func wait() async {
            await withCheckedContinuation { continuation in
                let isOpen = state.withLock { state in
                    if !state.open { state.waiting.append(continuation) }
                    return state.open
                }
                if isOpen { continuation.resume() }
            }
        }
    }

    private struct Rule {
        let method: String?
        let fault: Fault
    }

    let backend: URL
    let port: UInt16
    private let rules = LockedState<[Rule]>([])
    private let log = LockedState<[String]>([])
    private let server: HTTPServer
    private let task: Task<Void, any Error>
    private let forwarder = BasicSync(settings: SyncSettings(timeout: 30, retries: 0))

    private init(backend: URL, server: HTTPServer, task: Task<Void, any Error>, port: UInt16) {
        self.backend = backend
        self.server = server
        self.task = task
        self.port = port
    }

    /// A proxy to `backend` on a free port.
    static func start(backend: URL) async throws -> FaultProxy {
        var server: HTTPServer
        var task: Task<Void, any Error>
        var port: UInt16
        repeat {  // a port another server of this process had is not used again: see TestPorts
            server = HTTPServer(address: try .inet(ip4: "127.0.0.1", port: 0), timeout: 60, logger: .disabled)
            let running = server
            task = Task { try await running.run() }
            try await server.waitUntilListening(timeout: SyncFixtures.serverDeadline)
            guard case .ip4(_, let actual)? = await server.listeningAddress else { throw URLError(.cannotConnectToHost) }
            port = actual
            if TestPorts.claim(Int(port)) { break }
            await server.stop(timeout: 0)
            task.cancel()
        } while true
        let proxy = FaultProxy(backend: backend, server: server, task: task, port: port)
        await server.appendRoute("*") { [weak proxy] request in
            guard let proxy else { return HTTPResponse(statusCode: .serviceUnavailable) }
            return try await proxy.handle(request)
        }
        return proxy
    }

    var baseURL: URL { URL(string: "http://127.0.0.1:\(port)")! }

    /// Queues `fault` for the next request with `method` (any method when `nil`).
    func inject(_ fault: Fault, on method: String? = nil) {
        rules.withLock { $0.append(Rule(method: method, fault: fault)) }
    }

    /// Every request received, as `METHOD /path`, in order.
    var requests: [String] { log.withLock { $0 } }

    /// Faults injected and not used yet.
    var unusedFaults: Int { rules.withLock { $0.count } }

    func stop() async {
        await server.stop(timeout: 0)
        task.cancel()
        _ = await task.result
    }

    private func handle(_ request: HTTPRequest) async throws -> HTTPResponse {
        let method = request.method.rawValue
        log.withLock { $0.append("\(method) \(request.path)") }
        let fault = rules.withLock { rules -> Fault? in
            guard let index = rules.firstIndex(where: { $0.method == nil || $0.method == method }) else { return nil }
            return rules.remove(at: index).fault
        }
        switch fault {
        case .answer(let status)?:
            return Self.response(status, ["error": "injected"], version: nil)
        case .redirect(let location)?:
            return HTTPResponse(statusCode: .found, headers: [.location: location], body: Data())
        case .holdUntil(let gate)?:
            await gate.wait()
            _ = try await forward(request)
            try await Task.sleep(for: .seconds(3600))
        case .before(let action)?:
            try await action()
        default:
            break
        }
        let answer = try await forward(request)
        switch fault {
        case .forwardThenAnswer(let status)?:
            return Self.response(status, ["error": "injected after the server's work"], version: nil)
        case .forwardThenHang?:
            try await Task.sleep(for: .seconds(3600))
            return answer
        case .forwardThenMalformed?:
            return HTTPResponse(statusCode: .ok, headers: [.contentType: "application/json"], body: Data("{\"id\": ".utf8))
        case .rewriteAnswer(let change)?:
            let body = (try? TrellisCore.JSONValue(jsonData: try await answer.bodyData)) ?? .null
            return Self.response(answer.statusCode.code, change(body), version: nil)
        default:
            return answer
        }
    }

    /// Sends the request on to the backend and relays its answer (502 when it cannot be reached).
    private func forward(_ request: HTTPRequest) async throws -> HTTPResponse {
        guard let method = SyncRequest.Method(rawValue: request.method.rawValue),
              var components = URLComponents(url: backend.appendingPathComponent(request.path), resolvingAgainstBaseURL: false)
        else { return Self.response(405, ["error": "method not proxied"], version: nil) }
        if !request.query.isEmpty { components.queryItems = request.query.map { URLQueryItem(name: $0.name, value: $0.value) } }
        let data = try await request.bodyData
        let body = data.isEmpty ? nil : try? TrellisCore.JSONValue(jsonData: data)
        let ifMatch = request.headers[HTTPHeader("If-Match")].flatMap(SyncResponse.version(fromETag:))
        let key = request.headers[HTTPHeader("Idempotency-Key")]
        do {
            let answer = try await forwarder.send(SyncRequest(method, components.url!, body: body, ifMatch: ifMatch,
                                                              idempotencyKey: key))
            return Self.response(answer.status, answer.body, version: answer.version)
        } catch {
            if case .httpStatus(_, _, let status, let body) = error { return Self.response(status, body, version: nil) }
            return Self.response(502, ["error": .string(error.description)], version: nil)
        }
    }

    private static func response(_ status: Int, _ body: TrellisCore.JSONValue, version: String?) -> HTTPResponse {
        var headers: HTTPHeaders = [.contentType: "application/json"]
        if let version { headers[.eTag] = "\"\(version)\"" }
        return HTTPResponse(statusCode: HTTPStatusCode(status, phrase: "Status \(status)"), headers: headers,
                            body: body.isNull ? Data() : body.jsonData())
    }
}
