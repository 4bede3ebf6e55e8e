import Foundation
import TrellisCore
@testable import TrellisSync

/// `chaos_proxy.py` beside this file: a proxy on 127.0.0.1 that resets connections (before
/// forwarding, or after, losing the answer), forwards twice, delays, answers cut-short JSON or
/// an HTML error page — drawn from a seeded generator, or queued one at a time by the test.
/// Unlike ``FaultProxy`` (FlyingFox, which always answers), it can close a connection with
/// no answer at all, as a crashed server or a dropped network does.
///
/// ```swift
/// let proxy = try await ChaosProxy.start(backendPort: server.port, seed: 7, faultRate: 0.2)
/// try await proxy.queue(.loseAnswer, on: "PUT")    // the next PUT lands; its answer is a reset
/// ```
final class ChaosProxy: Sendable {
    enum Fault: String, Sendable {
        case drop
        case loseAnswer = "lose-answer"
        case hangUp = "hang-up"
        case duplicate
        case delay
        case garbage
        case htmlError = "html-error"
    }

    let port: Int
    private let child: ChildProcess
    private let folder: URL
    private let control = BasicSync(settings: SyncSettings(timeout: 30, retries: 0))
    static let script = SyncFixtures.repositoryRoot.appendingPathComponent("Tests/TrellisSyncTests/Support/chaos_proxy.py")

    private init(port: Int, child: ChildProcess, folder: URL) {
        self.port = port
        self.child = child
        self.folder = folder
    }

    var baseURL: URL { URL(string: "http://127.0.0.1:\(port)")! }

    /// Starts a proxy to the server on `backendPort`, drawing a fault for a share
    /// `faultRate` of the requests from a generator seeded with `seed`.
    static func start(backendPort: Int, seed: UInt64 = 0, faultRate: Double = 0) async throws -> ChaosProxy {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("trellis-chaos-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let port = try ChildProcess.freePort()
        let child = try ChildProcess(["python3", script.path, "--port", String(port), "--backend-port", String(backendPort),
                                      "--seed", String(seed), "--fault-rate", String(faultRate)],
                                     output: folder.appendingPathComponent("proxy.log"))
        let proxy = ChaosProxy(port: port, child: child, folder: folder)
        let deadline = ContinuousClock.now + .seconds(60)
        while ContinuousClock.now < deadline {
            if (try? await proxy.requests()) != nil { return proxy }
            try await Task.sleep(for: .milliseconds(20))
        }
        proxy.stop()
        throw ChildProcess.Failure.timedOut(program: "chaos_proxy.py (to answer)", after: .seconds(60))
    }

    /// Queues `fault` for the next request with `method` (any when `nil`), before any drawn one.
    func queue(_ fault: Fault, on method: String? = nil) async throws {
        var request: [String: JSONValue] = ["fault": .string(fault.rawValue)]
        if let method { request["method"] = .string(method) }
        _ = try await control.send(SyncRequest(.post, baseURL.appendingPathComponent("__proxy__/fault"), body: .object(request)))
    }

    /// The requests seen so far, as `METHOD /path FAULT` (`-` when none).
    func requests() async throws -> [String] {
        let log = try await control.send(SyncRequest(.get, baseURL.appendingPathComponent("__proxy__/log"))).body
        return log["requests"]?.arrayValue?.compactMap(\.stringValue) ?? []
    }

    func stop() {
        child.kill()
        try? FileManager.default.removeItem(at: folder)
    }
}
