import Foundation
import Testing
@testable import TrellisPlugins
import TrellisCore
import TrellisTesting

/// The plugin runs in a process of its own: its events cross a socket, those of a start or a
/// stop arriving before the call returns.
@Suite("Location plugin")
struct LocationPluginTests {
    /// A harness with the Location plugin loaded but not started (no autostart), so that each
    /// test starts `location` with its own options.
    /// The location plugin loaded in a harness. Its tests test the plugin and the order of its
    /// messages, not deadlines (PluginIsolationTests test those on a test clock): the deadlines
    /// are long, so that a ThreadSanitizer build's slowness is not a failure (a plugin updating
    /// 200 times a second that watches its own updates missed the event deadline there).
    private func loaded(_ sandbox: PluginSandbox,
                        deadlines: PluginDeadlines = PluginDeadlines(start: .seconds(300), stop: .seconds(300), event: .seconds(300))) async throws -> PluginHarness {
        // The tracks these tests write, and the demo's: read-only, as the app's track is to the
        // shipped plugin (its "option:track" grant).
        let tracks = [sandbox.root.path, BuiltPlugins.repository.appendingPathComponent("data").path]
        try sandbox.install("Location") { manifest in
            manifest["autostart"] = [:]
            manifest["permissions"] = ["files": .object(Dictionary(uniqueKeysWithValues: tracks.map { ($0, "read") }))]
        }
        let harness = PluginHarness(sandbox: sandbox, deadlines: deadlines)
        #expect(await harness.load()[id: "location"]?.state == .loaded)
        #expect(!harness.services.isRunning("location"))
        return harness
    }

    /// Waits until `log` holds at least `count` lines.
    private func lines(_ log: Trace, count: Int) async -> [String] {
        _ = await eventually { log.all.count >= count }
        return log.all
    }

    @Test("fixed mode triggers location:update with the position, accuracy and a timestamp, repeatedly")
    func fixedPosition() async throws {
        let sandbox = try PluginSandbox()
        let harness = try await loaded(sandbox)
        let updates = Trace()
        let started = Date().timeIntervalSince1970
        harness.bus.watch("location:update", owner: updates) { log, event in
            let data = event.data
            // Fresh: stamped after the service started and before the update arrived.
            let stamp = data["timestamp"]?.doubleValue ?? 0
            let fresh = started <= stamp && stamp <= Date().timeIntervalSince1970
            log.record("\(data["latitude"] ?? nil) \(data["longitude"] ?? nil) \(data["accuracy"] ?? nil) fresh:\(fresh)")
        }

        try await harness.start("location", options: ["interval": 0.02, "latitude": 59.9343, "longitude": 30.3351, "accuracy": 25])
        let seen = await lines(updates, count: 3)
        try await harness.stop("location")

        #expect(seen.count >= 3)
        #expect(Set(seen) == ["59.9343 30.3351 25 fresh:true"])
    }

    @Test("track mode replays the track file point by point, starting over after the last")
    func trackReplay() async throws {
        let sandbox = try PluginSandbox()
        let harness = try await loaded(sandbox)
        let track = sandbox.root.appendingPathComponent("track.json")
        try Data(#"{"points": [{"latitude": 1, "longitude": 2}, {"latitude": 3, "longitude": 4, "accuracy": 5}]}"#.utf8)
            .write(to: track)
        let updates = Trace()
        harness.bus.watch("location:update", owner: updates) { log, event in
            log.record("\(event.data["latitude"] ?? nil),\(event.data["longitude"] ?? nil),\(event.data["accuracy"] ?? nil)")
        }

        try await harness.start("location", options: ["interval": 0.01, "track": .string(track.path)])
        let seen = await lines(updates, count: 5)
        try await harness.stop("location")

        #expect(Array(seen.prefix(5)) == ["1,2,10", "3,4,5", "1,2,10", "3,4,5", "1,2,10"])
    }

    @Test("the demo track in data/ is a valid track")
    func demoTrack() async throws {
        let sandbox = try PluginSandbox()
        let harness = try await loaded(sandbox)
        let updates = harness.record("location:update")
        let demo = BuiltPlugins.repository.appendingPathComponent("data/track-demo.json")

        try await harness.start("location", options: ["interval": 0.01, "track": .string(demo.path)])
        let seen = await lines(updates, count: 7)
        try await harness.stop("location")

        #expect(seen.count >= 7)
        #expect(seen.allSatisfy { $0.hasPrefix("location:update ") })
    }

    @Test("an unreadable track triggers location:error with the reason and the file")
    func unreadableTrack() async throws {
        let sandbox = try PluginSandbox()
        let harness = try await loaded(sandbox)
        let events = harness.record("location:*")
        let missing = sandbox.root.appendingPathComponent("nowhere.json").path

        try await harness.start("location", options: ["track": .string(missing)])

        // In both modes the events a start triggers reach their watchers before it returns.
        let all = events.all
        let error = try #require(all.first)
        #expect(all.count == 2)
        #expect(error.hasPrefix("location:error "))
        #expect(all.last?.hasPrefix(#"location:status {"item":"position","text":"unavailable: cannot read the track"#) == true,
                "the status item says so too: \(all)")
        let data = try JSONValue(jsonString: String(error.dropFirst("location:error ".count)))
        #expect(data["file"] == .string(missing))
        #expect(data["reason"]?.stringValue?.hasPrefix("cannot read the track") == true)
    }

    static let malformedTracks: [(text: String, reason: String)] = [
        (#"{"points": [{"latitude": 1}]}"#, "malformed track: point 0 needs numeric \"latitude\" and \"longitude\""),
        (#"{"points": [{"latitude": 1, "longitude": 2}, {"latitude": 95, "longitude": 0}]}"#, "malformed track: point 1: latitude 95.0 is not within -90...90"),
        (#"{"points": []}"#, "malformed track: the track has no points"),
        ("[1, 2", "malformed track: not valid JSON"),
    ]

    @Test("a malformed track triggers location:error naming the bad point", arguments: malformedTracks)
    func malformedTrack(track: (text: String, reason: String)) async throws {
        let (text, reason) = track
        let sandbox = try PluginSandbox()
        let harness = try await loaded(sandbox)
        let file = sandbox.root.appendingPathComponent("bad.json")
        try Data(text.utf8).write(to: file)
        let errors = Trace()
        harness.bus.watch("location:error", owner: errors) { log, event in
            log.record("\(event.data["reason"]?.stringValue ?? "") | \(event.data["file"]?.stringValue ?? "")")
        }

        try await harness.start("location", options: ["interval": 0.01, "track": .string(file.path)])

        #expect(try await errors.settled(count: 1) == ["\(reason) | \(file.path)"])
    }

    @Test("updates end when stop returns (one already under way may still arrive), also while a watcher lags behind them: what the plugin sent before its answer is handled first",
          arguments: [false, true])
    func stopIsFinal(slowWatcher: Bool) async throws {
        let sandbox = try PluginSandbox()
        let harness = try await loaded(sandbox)
        let updates = harness.record("location:update")
        let owner = Trace()
        // With a slow watcher, twice as slow as the updates, they queue up in the shell. The
        // stop is sent at once all the same: the connection's loop gives way to it between two
        // updates (PluginChannel.deliverDecoded). Before it did, the stop waited behind each
        // turn's 16 KiB of updates (a minute here, five under ThreadSanitizer).
        let interval = 0.05
        if slowWatcher {
            harness.bus.watch("location:update", owner: owner) { _, _ in usleep(100_000) }
        }

        try await harness.start("location", options: ["interval": .number(interval), "latitude": 0, "longitude": 0])
        _ = await lines(updates, count: slowWatcher ? 10 : 2)
        try await harness.stop("location")
        let atStop = updates.all.count
        // Started again elsewhere: once an update of the new run has come, the old run's would
        // have too.
        try await harness.start("location", options: ["interval": .number(interval), "latitude": 1, "longitude": 1])
        try await updates.wait(until: { $0.contains { $0.contains(#""latitude":1"#) } })
        try await harness.stop("location")

        #expect(updates.all.filter { $0.contains(#""latitude":0"#) }.count <= atStop + 1)
    }

    @Test("a watcher of location:update may stop the service")
    func watcherStops() async throws {
        let sandbox = try PluginSandbox()
        let harness = try await loaded(sandbox)
        let owner = Trace()
        let stopped = LockedState(false)
        harness.bus.watch("location:update", owner: owner) { _, _ in
            // The first update may come while the registry is still starting the service: a
            // stop is refused as busy then, and the next update tries again. A watcher cannot
            // wait for a plugin: it asks, and the stop runs in a task of its own.
            guard !stopped.withLock({ $0 }) else { return }
            Task {
                guard (try? await harness.services.stop("location")) != nil else { return }
                stopped.withLock { $0 = true }
            }
        }

        // Twenty updates a second: the plugin watches its own updates, and at two hundred a
        // ThreadSanitizer build's shell fell so far behind that the stop waited behind minutes
        // of them.
        try await harness.start("location", options: ["interval": 0.05, "latitude": 0, "longitude": 0])

        #expect(await eventually { stopped.withLock { $0 } })
        #expect(!harness.services.isRunning("location"))
        // Stopped, not cut off: the plugin answered the stop asked from its own event's watcher.
        #expect(harness.host.report(for: "location")?.state == .loaded)
        #expect(harness.logs.messages(at: .error).isEmpty, "\(harness.logs.messages(at: .error))")
    }

    static let badOptionCases: [(options: JSONValue, message: String)] = [
        ([:], #"location options need either "latitude" and "longitude", or "track""#),
        (["interval": 0, "latitude": 1, "longitude": 1], #"location option "interval" must be a positive number of seconds"#),
        (["latitude": "north", "longitude": 1], #"location option "latitude" must be a number"#),
    ]

    @Test("options without a position or a track, or with a bad interval, fail the start", arguments: badOptionCases)
    func badOptions(bad: (options: JSONValue, message: String)) async throws {
        let (options, message) = bad
        let sandbox = try PluginSandbox()
        let harness = try await loaded(sandbox)
        do {
            try await harness.start("location", options: options)
            Issue.record("expected the start to fail")
        } catch ServiceError.startFailed(let name, let owner, let underlying) {
            #expect(name == "location")
            #expect(owner == "location")
            #expect("\(underlying)" == message)
        }
        #expect(!harness.services.isRunning("location"))
    }
}
