import Foundation
import TrellisTesting
import XCTest

/// Orca, the screen reader of GNOME (Debian's `orca`), running against the test's window on the
/// session's accessibility bus, its speech read from its debug log: one `SPEECH OUTPUT: '…'`
/// line per phrase it would speak (there is no audio device; the phrases are logged all the
/// same). A test marks where it is, acts, and waits for the phrases spoken since.
final class OrcaSession {
    static let executable = URL(fileURLWithPath: "/usr/bin/orca")
    private let process = Process()
    private let folder: URL
    private let log: URL
    /// How many spoken phrases were read before the last ``mark()``.
    private var marked = 0

    /// Skips (or, under the README's test command, fails) without Orca.
    static func require() throws {
        guard FileManager.default.isExecutableFile(atPath: executable.path) else {
            if ProcessInfo.processInfo.environment["TRELLIS_REQUIRE_GUI"] == "1" { XCTFail("orca is missing: bash .ci/test installs it") }
            throw XCTSkip("needs orca (Debian's orca package)")
        }
    }

    /// Starts Orca with settings of its own and waits until it speaks ("Screen reader on").
    init(file: StaticString = #filePath, line: UInt = #line) throws {
        try Self.require()
        folder = FileManager.default.temporaryDirectory.appendingPathComponent("trellis-orca-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        log = folder.appendingPathComponent("orca.log")
        // Through a wrapper that flushes Orca's debug log line by line (orca-flushing.py).
        let wrapper = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("orca-flushing.py")
        process.executableURL = URL(fileURLWithPath: "/usr/bin/python3")
        process.arguments = [wrapper.path, "--replace", "--debug-file", log.path, "--user-prefs", folder.appendingPathComponent("prefs").path]
        var environment = ProcessInfo.processInfo.environment
        environment["GSETTINGS_BACKEND"] = "memory"
        process.environment = environment
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.runOneAtATime()
        try waitFor(timeout: 60, file: file, line: line) { $0.contains("Screen reader on.") }
        mark()
    }

    deinit {
        stop()
        // After a failure its whole debug log is kept beside the screenshots, to read.
        if failed {
            let kept = AppDriver.screenshotDirectory.appendingPathComponent("orca-\(UUID().uuidString.prefix(8)).log")
            try? FileManager.default.moveItem(at: log, to: kept)
        }
        try? FileManager.default.removeItem(at: folder)
    }

    /// Whether a wait failed (the log is then kept).
    private var failed = false

    /// Ends Orca: SIGTERM, then SIGKILL if it has not gone within 5 s.
    func stop() {
        guard process.isRunning else { return }
        process.terminate()
        for _ in 0..<50 where process.isRunning { usleep(100_000) }
        if process.isRunning { kill(process.processIdentifier, SIGKILL) }
        process.waitUntilExit()
    }

    /// Every phrase spoken so far, in order. A log line reads
    /// `SPEECH OUTPUT: 'Catalog frame.'{'established': False}` (a key's echo has a space
    /// before the voice's settings); a phrase with line breaks goes on over the next lines,
    /// each indented by the log, until its closing quote.
    var phrases: [String] {
        guard let text = try? String(contentsOf: log, encoding: .utf8) else { return [] }
        var phrases: [String] = []
        var open: String?
        for line in text.split(separator: "\n", omittingEmptySubsequences: false) {
            let rest: Substring
            if let start = line.range(of: "SPEECH OUTPUT: '") {
                if let unfinished = open { phrases.append(unfinished) }
                rest = line[start.upperBound...]
                open = ""
            } else if let unfinished = open {
                rest = line.drop { $0 == " " }
                open = unfinished + "\n"
            } else {
                continue
            }
            if let end = rest.range(of: "'{") ?? rest.range(of: "' {") {
                phrases.append((open ?? "") + rest[..<end.lowerBound])
                open = nil
            } else {
                open = (open ?? "") + rest
            }
        }
        if let unfinished = open, let end = unfinished.range(of: "'", options: .backwards) {
            phrases.append(String(unfinished[..<end.lowerBound]))
        }
        return phrases
    }

    /// Forgets what was spoken until now: ``spokenSinceMark`` starts here.
    func mark() {
        marked = phrases.count
    }

    /// The phrases spoken since the last ``mark()``.
    var spokenSinceMark: [String] { Array(phrases.dropFirst(marked)) }

    /// Waits until the phrases spoken since the mark satisfy `condition` (within `timeout`
    /// seconds, a bound against a hang, never a measure) and returns them.
    @discardableResult
    func waitFor(timeout: TimeInterval = 20, file: StaticString = #filePath, line: UInt = #line,
                 _ condition: ([String]) -> Bool) throws -> [String] {
        let deadline = Date().addingTimeInterval(timeout)
        var spoken = spokenSinceMark
        while !condition(spoken) && Date() < deadline && process.isRunning {
            usleep(100_000)
            spoken = spokenSinceMark
        }
        if !condition(spoken) {
            failed = true
            XCTFail("Orca did not speak what was expected (running: \(process.isRunning)); it said: \(spoken)", file: file, line: line)
        }
        return spoken
    }

    /// Waits until Orca has spoken `phrase` (a whole phrase) since the mark.
    @discardableResult
    func waitFor(_ phrase: String, timeout: TimeInterval = 20, file: StaticString = #filePath, line: UInt = #line) throws -> [String] {
        try waitFor(timeout: timeout, file: file, line: line) { $0.contains(phrase) }
    }
}
