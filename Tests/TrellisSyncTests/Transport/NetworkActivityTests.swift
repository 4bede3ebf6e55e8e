import Foundation
import Testing
import TrellisCore
@testable import TrellisSync
import TrellisTesting

/// `network:on` before and `network:off` after every attempt, whatever its outcome, so the
/// `net_state` service (the NetworkActivity plugin) always counts back to zero.
@Suite("BasicSync: network activity announcements")
struct NetworkActivityTests {
    enum Outcome: String, CaseIterable, CustomTestStringConvertible {
        case success, httpError, timeout, refused, malformedJSON, cancelled

        var testDescription: String { rawValue }
    }

    @Test("network:on and network:off balance after every outcome", arguments: Outcome.allCases)
    func balanced(outcome: Outcome) async throws {
        try await SyncFixtures.withServer { server in
            let bus = EventBus()
            let events = EventRecorder(bus: bus, pattern: "*")
            // Only the timeout's own case has a short deadline: a healthy answer on a loaded
            // machine gets the usual one.
            let settings = outcome == .timeout ? SyncFixtures.settings(timeout: 0.2, retries: 1) : SyncFixtures.settings(retries: 1)
            let sync = BasicSync(settings: settings, bus: bus)
            switch outcome {
            case .success: break
            case .httpError: server.failNext(5)
            case .timeout: server.delay = .seconds(60)
            case .refused: await server.stop()
            case .malformedJSON: server.malformed = true
            case .cancelled: server.delay = .seconds(5)
            }
            let url = server.notesURL
            let task = Task { try await sync.send(SyncRequest(.get, url)) }
            if outcome == .cancelled {
                let started = await eventually { events.count(NetworkActivity.on) == 1 }
                #expect(started)
                task.cancel()
            }
            let result = await task.result
            #expect((try? result.get()) != nil || outcome != .success)

            let ons = events.count(NetworkActivity.on)
            #expect(ons >= 1)
            #expect(ons == events.count(NetworkActivity.off))
            // Each off follows its own on: a count of them never goes negative, never overlaps.
            let pairs = events.messages.filter { $0.hasPrefix("network:") }
            #expect(pairs == Array(repeating: ["network:on", "network:off"], count: ons).flatMap { $0 })
        }
    }

    @Test("network:off names the attempt's outcome")
    func outcomeIsNamed() async throws {
        try await SyncFixtures.withServer { server in
            let bus = EventBus()
            let events = EventRecorder(bus: bus, pattern: NetworkActivity.off)
            server.failNext(1)
            _ = try await BasicSync(settings: SyncFixtures.settings(retries: 1), bus: bus)
                .send(SyncRequest(.get, server.notesURL))
            #expect(events.all.map { $0.data["outcome"] } == ["500", "200"])
            #expect(events.all.map { $0.data["attempt"] } == [1, 2])
            #expect(events.all.first?.data["url"] == .string(server.notesURL.absoluteString))
        }
    }
}
