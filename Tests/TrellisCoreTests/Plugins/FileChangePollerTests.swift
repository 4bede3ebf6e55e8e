import Foundation
import Testing
@testable import TrellisCore
import TrellisTesting

/// The poller behind `followSettings` and `--plugin-dev`.
@Suite("File change poller")
struct FileChangePollerTests {
    @Test("the files are looked at before start returns: a change made at once is seen however late the thread runs")
    func baselineAtStart() async throws {
        let sandbox = try PluginSandbox()
        let file = sandbox.root.appendingPathComponent("watched.json")
        let looks = LockedState(0)
        let changes = LockedState(0)
        let poller = FileChangePoller(interval: .milliseconds(20), files: {
            looks.withLock { $0 += 1 }
            return [file]
        }, onChange: { changes.withLock { $0 += 1 } })
        poller.start()
        defer { poller.stop() }
        #expect(looks.withLock { $0 } >= 1, "the baseline is taken on the poller's thread, maybe after the change")

        try Data("{}".utf8).write(to: file)

        #expect(await eventually { changes.withLock { $0 } == 1 })
    }
}
