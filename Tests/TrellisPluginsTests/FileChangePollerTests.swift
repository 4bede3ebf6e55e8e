import Foundation
import Testing
@testable import TrellisPlugins
import TrellisCore
import TrellisTesting

/// The poller behind `followSettings` and `--plugin-dev`, on a test clock.
@Suite("File change poller")
struct FileChangePollerTests {
    @Test("the files are looked at before start returns: a change made at once is seen however late the task runs")
    func baselineAtStart() async throws {
        let sandbox = try PluginSandbox()
        let file = sandbox.root.appendingPathComponent("watched.json")
        let looks = LockedState(0)
        let changes = LockedState(0)
        let clock = ManualClock()
        let poller = FileChangePoller(interval: .milliseconds(20), clock: clock.plugin, files: {
            looks.withLock { $0 += 1 }
            return [file]
        }, onChange: { changes.withLock { $0 += 1 } })
        poller.start()
        defer { poller.stop() }
        #expect(looks.withLock { $0 } >= 1, "the baseline is taken in the poller's task, maybe after the change")

        try Data("{}".utf8).write(to: file)

        #expect(await clock.advance(by: .milliseconds(20), until: { changes.withLock { $0 } == 1 }))
    }

    @Test("nothing is looked at until the clock moves, and nothing is reported for files that do not change")
    func quietWithoutTime() async throws {
        let sandbox = try PluginSandbox()
        let file = sandbox.root.appendingPathComponent("watched.json")
        try Data("{}".utf8).write(to: file)
        let looks = LockedState(0)
        let changes = LockedState(0)
        let clock = ManualClock()
        let poller = FileChangePoller(interval: .seconds(1), clock: clock.plugin, files: {
            looks.withLock { $0 += 1 }
            return [file]
        }, onChange: { changes.withLock { $0 += 1 } })
        poller.start()
        defer { poller.stop() }
        #expect(await clock.advance(by: .seconds(1), until: { looks.withLock { $0 } >= 5 }))
        #expect(changes.withLock { $0 } == 0)
    }

    @Test("a change made while onChange runs is seen too: a disable followed at once by an enable is not lost")
    func changeDuringOnChange() async throws {
        let sandbox = try PluginSandbox()
        let file = sandbox.root.appendingPathComponent("watched.json")
        try Data("{}".utf8).write(to: file)
        let changes = LockedState(0)
        let clock = ManualClock()
        let poller = FileChangePoller(interval: .milliseconds(20), clock: clock.plugin, files: { [file] }, onChange: {
            let call = changes.withLock { count in
                count += 1
                return count
            }
            // As `trellis plugins --enable` may, the moment the first change took effect.
            if call == 1 { try? Data(#"{"enabled": true}"#.utf8).write(to: file) }
        })
        poller.start()
        defer { poller.stop() }

        try Data(#"{"enabled": false, "more": 1}"#.utf8).write(to: file)

        #expect(await clock.advance(by: .milliseconds(20), until: { changes.withLock { $0 } == 2 }),
                "the write made during the first call was missed")
    }
}
