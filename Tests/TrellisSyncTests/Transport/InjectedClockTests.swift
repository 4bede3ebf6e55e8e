import Foundation
import Testing
import TrellisCore
import TrellisStore
@testable import TrellisSync
import TrellisTesting

/// The sync's time comes from the clock it is given: a timeout, a retry's back-off, the
/// pause after a failed pass and the pass that confirms a write are crossed by advancing a
/// test clock, in no real time (each waits an hour here: with the real clock the test would
/// not end).
@Suite("Sync time on an injected clock")
@MainActor
struct InjectedClockTests {
    @Test("a request the server holds times out when the sync's clock passes the timeout")
    func timeoutOnTheClock() async throws {
        try await SyncFixtures.withServer { server in
            let proxy = try await FaultProxy.start(backend: server.baseURL)
            defer { Task { await proxy.stop() } }
            let gate = FaultProxy.Gate()
            defer { gate.open() }
            proxy.inject(.holdUntil(gate))
            let clock = ManualClock()
            let sync = BasicSync(settings: SyncSettings(timeout: 3600, retries: 0), clock: clock)
            let url = proxy.baseURL.appendingPathComponent("notes")
            let request = Task { try await sync.send(SyncRequest(.get, url)) }
            await clock.waitForSleeper(dueIn: .seconds(3600))
            clock.advance(by: .seconds(3600))
            do {
                _ = try await request.value
                Issue.record("answered")
            } catch let error as SyncError {
                guard case .timedOut(.get, url, 3600) = error else { Issue.record("\(error)"); return }
            }
        }
    }

    @Test("a retry waits its back-off on the sync's clock")
    func backoffOnTheClock() async throws {
        try await SyncFixtures.withServer { server in
            server.failNext(1, status: 503)
            let clock = ManualClock()
            let settings = SyncSettings(timeout: 7200, retries: 1, backoff: 3600, maximumBackoff: 3600)
            let sync = BasicSync(settings: settings, clock: clock)
            let request = Task { try await sync.send(SyncRequest(.get, server.notesURL)) }
            await clock.waitForSleeper(dueIn: .seconds(3600))
            #expect(server.answered == 1, "the retry waits for the clock")
            clock.advance(by: .seconds(3600))
            let response = try await request.value
            #expect(response.status == 200)
            #expect(server.answered == 2)
        }
    }

    @Test("after a failed pass the sync's loop pauses on its clock; a pass that wrote is confirmed by one 2 s later")
    func loopOnTheClock() async throws {
        try await SyncFixtures.withServer { server in
            let clock = ManualClock()
            let bus = EventBus()
            let store = try PersistentStore(url: try SyncFixtures.storeURL(), model: try SyncFixtures.demoModel(), bus: bus)
            let sync = try EntitySync(store: store, bus: bus, server: server.baseURL,
                                      settings: SyncFixtures.settings(retries: 0), clock: clock)
            let finished = EventRecorder(bus: bus, pattern: EntitySync.Events.finished)
            await server.stop()
            sync.start(every: .seconds(3600))
            defer { sync.stop() }
            #expect(await eventually { finished.all.count == 1 })
            #expect(finished.all.first?.data["offline"] == true)
            try await server.restart()
            let context = store.newContext()
            try context.insert("Note", values: ["title": "Plan", "created": .date(Date()), "updated": .date(Date())])
            try sync.save(context)
            await clock.waitForSleeper(dueIn: .seconds(1))  // the pause after the failure
            #expect(finished.all.count == 1, "the pass waits for the pause")
            clock.advance(by: .seconds(1))
            #expect(await eventually { finished.all.count == 2 })
            // The pass's whole report on failure: it flaked once in a full run (pushed 0), and
            // what the pass met (offline, a server error) was not told.
            #expect(finished.all.last?.data["pushed"] == 1, "the pass after the pause: \(finished.all.last?.data.jsonString ?? "none")")
            await clock.waitForSleeper(dueIn: .seconds(2))  // the confirming pass
            clock.advance(by: .seconds(2))
            #expect(await eventually { finished.all.count == 3 })
            #expect(server.notes.map { $0.attributes["title"] } == ["Plan"])
        }
    }
}
