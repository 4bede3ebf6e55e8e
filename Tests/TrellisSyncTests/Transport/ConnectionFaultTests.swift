import Foundation
import Testing
import TrellisCore
@testable import TrellisSync

extension AgainstRealServers {
    /// What a connection can do to one request, between BasicSync and a real server: be reset
    /// before or after the server's work, answer an HTML page or JSON cut short, redirect.
    @Suite("Connections: resets end a request at once, redirects are followed once and remembered")
    struct ConnectionFaultTests {
        /// A timeout no test here reaches unless a reset is mistaken for silence.
        static let settings = SyncSettings(timeout: 120, retries: 0)

        @Test("a connection reset or closed before or after the server's work ends the request as offline, without waiting for the timeout")
        func resetEndsAtOnce() async throws {
            try await JSONServerPy.with { server in
                let proxy = try await ChaosProxy.start(backendPort: server.port)
                defer { proxy.stop() }
                let sync = BasicSync(settings: Self.settings)
                let notes = proxy.baseURL.appendingPathComponent("notes")
                for fault in [ChaosProxy.Fault.drop, .loseAnswer, .hangUp] {
                    try await proxy.queue(fault)
                    do {
                        _ = try await sync.send(SyncRequest(.put, notes.appendingResourceID("a"), body: ["title": "a"]))
                        Issue.record("\(fault): answered")
                    } catch let error as SyncError {
                        if case .timedOut = error { Issue.record("\(fault): waited for the timeout") }
                        #expect(error.isOffline, "\(fault): \(error)")
                    }
                }
                let requests = try await proxy.requests()
                #expect(requests == ["PUT /notes/a drop", "PUT /notes/a lose-answer", "PUT /notes/a hang-up"])
                #expect(try await server.notes().map(\.id) == ["a"], "the second reached the server")
            }
        }

        @Test("an HTML error page and JSON cut short are errors naming the request")
        func garbageAnswers() async throws {
            try await JSONServerPy.with { server in
                let proxy = try await ChaosProxy.start(backendPort: server.port)
                defer { proxy.stop() }
                let sync = BasicSync(settings: Self.settings)
                let notes = proxy.baseURL.appendingPathComponent("notes")
                try await proxy.queue(.htmlError)
                await #expect(throws: SyncError.self) { _ = try await sync.send(SyncRequest(.get, notes)) }
                try await proxy.queue(.garbage)
                do {
                    _ = try await sync.send(SyncRequest(.get, notes))
                    Issue.record("cut-short JSON was read")
                } catch let error as SyncError {
                    guard case .malformedJSON(.get, notes, 200, _) = error else { Issue.record("\(error)"); return }
                }
            }
        }

        @Test("a trailing-slash server: one redirect is followed with the same method and body, then the slash is added up front")
        func trailingSlash() async throws {
            try await DRFServer.with(options: [.trailingSlash]) { server in
                let proxy = try await ChaosProxy.start(backendPort: server.port)
                defer { proxy.stop() }
                let sync = BasicSync(settings: Self.settings)
                let notes = proxy.baseURL.appendingPathComponent("notes")
                let stamp: JSONValue = "2026-01-02T03:04:05.678Z"
                let created = try await sync.send(SyncRequest(.post, notes, body: ["title": "Plan", "created": stamp,
                                                                                   "updated": stamp]))
                #expect(created.status == 201)
                let id = try #require(RemoteResource(json: created.body)?.id)
                let changed = try await sync.send(SyncRequest(.put, notes.appendingResourceID(id),
                                                              body: ["title": "Plan, changed", "created": stamp, "updated": stamp]))
                #expect(changed.body["title"] == "Plan, changed", "a PUT, not a GET after the redirect")
                _ = try await sync.send(SyncRequest(.get, notes))
                let requests = try await proxy.requests()
                #expect(requests == ["POST /notes -", "POST /notes/ -", "PUT /notes/\(id)/ -", "GET /notes/ -"])
                #expect(try await server.notes().map { $0.attributes["title"] } == ["Plan, changed"])
            }
        }

        @Test("a redirect to another server is not followed: the token never leaves for it")
        func redirectElsewhere() async throws {
            try await SyncFixtures.withServer { server in
                let proxy = try await FaultProxy.start(backend: server.baseURL)
                defer { Task { await proxy.stop() } }
                proxy.inject(.redirect(to: "http://localhost:9/notes"))
                let sync = BasicSync(settings: SyncSettings(bearerToken: "s3cret", timeout: 120, retries: 0))
                do {
                    _ = try await sync.send(SyncRequest(.get, proxy.baseURL.appendingPathComponent("notes")))
                    Issue.record("the redirect was followed")
                } catch let error as SyncError {
                    #expect(error.status == 302)
                }
            }
        }
    }
}
