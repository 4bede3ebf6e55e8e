import Foundation
import Testing
import TrellisCore
import TrellisStore
@testable import TrellisSync
import TrellisTesting

extension AgainstRealServers {
    /// Transient failures between the app and json-server-py, injected by the proxy: 500 before
    /// and after the server's work, 429, timeouts, malformed JSON. Nothing typed is lost or
    /// duplicated, a failed pull destroys nothing, and a pulled change is never sent back.
    @Suite("Transient failures against json-server-py")
    @MainActor
    struct JSONServerTransientTests {
        private func proxied(_ server: JSONServerPy, retries: Int = 0) async throws -> (SyncedStore, FaultProxy) {
            let proxy = try await FaultProxy.start(backend: server.baseURL)
            let settings = SyncFixtures.settings(timeout: JSONServerFaultTests.settings.timeout, retries: retries)
            return (try SyncedStore(serverURL: proxy.baseURL, settings: settings), proxy)
        }

        @Test("HTTP 500 before the server's work keeps the create queued; the next pass makes it once")
        func serverErrorBefore() async throws {
            try await JSONServerPy.with { server in
                let (local, proxy) = try await proxied(server)
                defer { Task { await proxy.stop() } }
                try local.write(["Shopping"], body: "milk")
                proxy.inject(.answer(500), on: "PUT")
                let failed = try await local.sync.syncNow()
                #expect(failed.failure?.status == 500)
                #expect(failed.pending == 1)
                #expect(try await server.notes().isEmpty)
                try await Convergence.settle(local)
                try Convergence.expect(server: try await server.notes(), stores: [local], hold: ["Shopping | milk"])
            }
        }

        @Test("HTTP 500 after the server's work: the create is found on the server, not made twice")
        func serverErrorAfter() async throws {
            try await JSONServerPy.with { server in
                let (local, proxy) = try await proxied(server)
                defer { Task { await proxy.stop() } }
                try local.write(["Shopping"], body: "milk")
                proxy.inject(.forwardThenAnswer(500), on: "PUT")
                let failed = try await local.sync.syncNow()
                #expect(failed.failure?.status == 500)
                #expect(try await server.notes().count == 1)
                let report = try await local.sync.syncNow()
                #expect(report.resolved == 1)
                try Convergence.expect(server: try await server.notes(), stores: [local], hold: ["Shopping | milk"])
            }
        }

        @Test("HTTP 429 to a read is retried after the backoff within the pass (retries bounded by the settings)")
        func tooManyRequests() async throws {
            try await JSONServerPy.with { server in
                let (local, proxy) = try await proxied(server, retries: 1)
                defer { Task { await proxy.stop() } }
                try local.write(["Shopping"])
                proxy.inject(.answer(429), on: "GET")
                proxy.inject(.answer(429), on: "PUT")
                let report = try await local.sync.syncNow()
                #expect(report.failure == nil)
                #expect(proxy.unusedFaults == 0)
                #expect(proxy.requests.filter { $0 == "GET /notes" }.count == 2)
                try Convergence.expect(server: try await server.notes(), stores: [local], hold: ["Shopping | "])
            }
        }

        @Test("retries are bounded: a server that keeps answering 503 ends the pass with the change queued")
        func boundedRetries() async throws {
            try await JSONServerPy.with { server in
                let (local, proxy) = try await proxied(server, retries: 2)
                defer { Task { await proxy.stop() } }
                try local.write(["Shopping"])
                for _ in 0..<3 { proxy.inject(.answer(503), on: "PUT") }
                let failed = try await local.sync.syncNow()
                #expect(failed.failure?.status == 503)
                #expect(proxy.requests.filter { $0.hasPrefix("PUT") }.count == 3)
                try await Convergence.settle(local)
                try Convergence.expect(server: try await server.notes(), stores: [local], hold: ["Shopping | "])
            }
        }

        @Test("a malformed answer to a create: found on the server by the next pass, not made twice")
        func malformedCreateAnswer() async throws {
            try await JSONServerPy.with { server in
                let (local, proxy) = try await proxied(server)
                defer { Task { await proxy.stop() } }
                try local.write(["Shopping"], body: "milk")
                proxy.inject(.forwardThenMalformed, on: "PUT")
                let failed = try await local.sync.syncNow()
                guard case .malformedJSON? = failed.failure else { throw JSONServerFaultTests.UnexpectedReport(report: failed) }
                let report = try await local.sync.syncNow()
                #expect(report.resolved == 1)
                try Convergence.expect(server: try await server.notes(), stores: [local], hold: ["Shopping | milk"])
            }
        }

        @Test("a malformed or lost list trashes nothing and changes nothing in the store")
        func failedPullDestroysNothing() async throws {
            try await JSONServerPy.with { server in
                let (local, proxy) = try await proxied(server)
                defer { Task { await proxy.stop() } }
                try local.write(["Shopping", "Ideas"])
                try await local.sync.syncNow()
                try await local.sync.syncNow()
                proxy.inject(.forwardThenMalformed, on: "GET")
                let malformed = try await local.sync.syncNow()
                guard case .malformedJSON? = malformed.failure else { throw JSONServerFaultTests.UnexpectedReport(report: malformed) }
                proxy.inject(.forwardThenHang, on: "GET")
                let timedOut = try await local.sync.syncNow()
                guard case .timedOut? = timedOut.failure else { throw JSONServerFaultTests.UnexpectedReport(report: timedOut) }
                #expect(try local.sync.trashedObjects().isEmpty)
                try Convergence.expect(server: try await server.notes(), stores: [local], hold: ["Ideas | ", "Shopping | "])
            }
        }

        @Test("a change pulled from the server is not sent back, even once the app's contexts have seen the save")
        func pulledChangeNotEchoed() async throws {
            try await JSONServerPy.with { server in
                let (local, proxy) = try await proxied(server)
                defer { Task { await proxy.stop() } }
                let list = try FetchedSource(request: FetchRequest(entityName: "Note"), context: local.store.newContext())
                try local.write(["Plan"], body: "v1")
                try await local.sync.syncNow()
                try await local.sync.syncNow()  // a later pull sees the create kept
                let id = try #require(try await server.notes().first?.id)
                try await server.edit(id, ["body": "edited elsewhere"])
                let pulled = try await local.sync.syncNow()
                #expect(pulled.updated == 1)
                #expect(await eventually {
                    list.item(at: TableIndexPath(row: 0)).value(as: ManagedObject.self)?["body"] == "edited elsewhere"
                })
                let before = proxy.requests.count
                let next = try await local.sync.syncNow()
                #expect(next.pushed == 0)
                #expect(proxy.requests.dropFirst(before) == ["GET /notes"])
                try Convergence.expect(server: try await server.notes(), stores: [local], hold: ["Plan | edited elsewhere"])
            }
        }
    }
}
