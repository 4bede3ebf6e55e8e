import Foundation
import Synchronization
import Testing
import TrellisTesting

@Suite("child processes launched one at a time")
struct ChildProcessLaunchTests {
    /// `program` with `arguments`, an empty environment, and none of the test run's input or
    /// output (so a crashed run is not kept waiting by a child that holds it).
    static func child(_ program: String, _ arguments: [String] = []) -> Process {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: program)
        process.arguments = arguments
        process.environment = [:]
        (process.standardInput, process.standardOutput, process.standardError) =
            (FileHandle.nullDevice, FileHandle.nullDevice, FileHandle.nullDevice)
        return process
    }

    /// `count` long-lived children started one after the other on a thread of their own, as a
    /// test beside this one starts a window or a server; all killed by `stop()`.
    final class Sleepers: Sendable {
        private let state = Mutex<(stopping: Bool, started: [Process])>((false, []))
        private let done = DispatchSemaphore(value: 0)

        var launching: Bool { state.withLock { !$0.stopping } }

        func start(count: Int) {
            Thread.detachNewThread { [self] in
                for _ in 0..<count where launching {
                    let process = ChildProcessLaunchTests.child("/bin/sleep", ["600"])
                    guard (try? process.runOneAtATime()) != nil else { break }
                    state.withLock { $0.started.append(process) }
                }
                state.withLock { $0.stopping = true }
                done.signal()
            }
        }

        func stop() {
            state.withLock { $0.stopping = true }
            done.wait()
            for process in state.withLock({ $0.started }) {
                kill(process.processIdentifier, SIGKILL)
                process.waitUntilExit()
            }
        }
    }

    @Test("a child started from a test's thread ends on SIGTERM: it starts with no signal blocked")
    func childEndsOnTerminate() async throws {
        let process = Self.child("/bin/sleep", ["600"])
        try process.runOneAtATime()
        defer { if process.isRunning { kill(process.processIdentifier, SIGKILL) } }
        process.terminate()
        let ended = await eventually { !process.isRunning }
        #expect(ended, "/bin/sleep outlived its SIGTERM")
        if ended { #expect(process.terminationReason == .uncaughtSignal && process.terminationStatus == SIGTERM) }
    }

    // Without the lock, about one `/bin/true` in a hundred started beside the sleepers inherited
    // one's socket and stayed "running" for the sleeper's 600 s (measured on 2 cores: 3 of 272),
    // so this fails most times without it.
    @Test("a command that exits is seen to end while other children are started beside it")
    func endSeenBesideOtherLaunches() async throws {
        let sleepers = Sleepers()
        sleepers.start(count: 300)
        defer { sleepers.stop() }
        var run = 0
        while run < 100 || sleepers.launching {
            run += 1
            let process = Self.child("/bin/true")
            try process.runOneAtATime()
            let ended = await eventually { !process.isRunning }
            try #require(ended, "run \(run): /bin/true is still seen running: it shares a sibling's end-of-process socket")
        }
    }

    /// The project's tests, read as text: each Swift file under Tests/ but the generated doc
    /// examples, with its lines.
    static func testSources() throws -> [(path: String, lines: [Substring])] {
        let tests = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        guard let files = FileManager.default.enumerator(at: tests, includingPropertiesForKeys: nil) else { return [] }
        return try files.compactMap { $0 as? URL }
            .filter { $0.pathExtension == "swift" && !$0.path.contains("/Generated/") }
            .map { ($0.path, try String(contentsOf: $0, encoding: .utf8).split(separator: "\n", omittingEmptySubsequences: false)) }
    }

    @Test("every test starts its processes through ChildProcessLaunch: no Process.run(), no posix_spawn outside oneAtATime")
    func everyLaunchGoesThroughTheLock() throws {
        let sources = try Self.testSources()
        #expect(sources.count > 100, "the tests were not found: \(sources.count) files")
        // `try await server.run()` starts a server in this process, not a child.
        let run = /\b\w+\.run\(\)/
        let spawn = /\bposix_spawnp?\(/
        var stray: [String] = []
        for (path, lines) in sources where !path.hasSuffix("/ChildProcessLaunchTests.swift") {
            for (number, line) in lines.enumerated() where !line.trimmingCharacters(in: .whitespaces).hasPrefix("//") {
                let nearby = lines[max(0, number - 2)...number].joined(separator: " ")
                if (line.contains(run) && !line.contains("await")) || (line.contains(spawn) && !nearby.contains("oneAtATime")) {
                    stray.append("\(path.split(separator: "/Tests/").last ?? ""):\(number + 1): \(line.trimmingCharacters(in: .whitespaces))")
                }
            }
        }
        #expect(stray.isEmpty, "start these through ChildProcessLaunch (runOneAtATime, oneAtATime):\n\(stray.joined(separator: "\n"))")
    }
}
