import Foundation
import Testing
import TrellisTesting
@testable import TrellisStore

@Suite("Crash safety")
struct CrashSafetyTests {
    /// The helper built next to the test binary (the test target depends on it).
    private static let crasherURL = URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath()
        .deletingLastPathComponent().appendingPathComponent("trellis-store-crasher")

    /// Runs the crasher from save `first` on, kills it with SIGKILL a random moment after
    /// its first reported save, and returns the saves it reported as `(number, rows)`.
    private func runAndKill(store: URL, first: Int) throws -> [(number: Int, rows: Int)] {
        let process = Process()
        process.executableURL = Self.crasherURL
        process.arguments = [store.path, Fixtures.demoModelURL.path, String(first)]
        let output = Pipe()
        let errors = Pipe()
        process.standardOutput = output
        process.standardError = errors
        try process.runOneAtATime()
        let reader = output.fileHandleForReading
        var poller = pollfd(fd: reader.fileDescriptor, events: Int16(POLLIN), revents: 0)
        let ready = poll(&poller, 1, 10_000)
        usleep(UInt32.random(in: 0...40_000))
        kill(process.processIdentifier, SIGKILL)
        process.waitUntilExit()
        let text = String(decoding: reader.readDataToEndOfFile(), as: UTF8.self)
        let problems = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        // Standard error carries the store's log; the crasher's own failures start with its name.
        #expect(ready == 1 && !problems.contains("trellis-store-crasher:"), "the crasher failed: \(problems)")
        #expect(process.terminationReason == .uncaughtSignal && process.terminationStatus == SIGKILL)
        // A line cut by the kill was not reported: keep complete lines only.
        return text.split(separator: "\n", omittingEmptySubsequences: false).dropLast().compactMap { line in
            let fields = line.split(separator: " ").compactMap { Int($0) }
            return fields.count == 2 ? (fields[0], fields[1]) : nil
        }
    }

    @Test("a process killed with SIGKILL amid repeated saves loses no save that returned, over 24 rounds")
    func killedMidSave() throws {
        #expect(FileManager.default.isExecutableFile(atPath: Self.crasherURL.path), "build trellis-store-crasher first")
        let url = try Fixtures.storeURL()
        var next = 1
        var reportedSaves = 0
        for round in 1...24 {
            let reported = try runAndKill(store: url, first: next)
            #expect(!reported.isEmpty, "round \(round): no save reported")
            reportedSaves += reported.count
            let store = try PersistentStore(url: url, model: try Fixtures.demoModel())
            let context = store.newContext()
            #expect(try store.integrityCheck() == ["ok"], "round \(round)")
            for (number, rows) in reported {
                let saved = try context.count(for: FetchRequest(entityName: "Note", predicate: .equal("body", .string(String(number)))))
                #expect(saved == rows, "round \(round): save \(number) reported with \(rows) notes, found \(saved)")
            }
            // The save in progress at the kill is all there or not there at all.
            let unreported = (reported.last?.number ?? next - 1) + 1
            let partial = try context.count(for: FetchRequest(entityName: "Note", predicate: .equal("body", .string(String(unreported)))))
            #expect(partial == 0 || partial == 1 + unreported % 5, "round \(round): save \(unreported) is partial")
            try store.close()
            next = unreported + 1
        }
        #expect(reportedSaves >= 24)
    }
}
