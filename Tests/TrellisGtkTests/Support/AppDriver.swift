import Foundation
import TrellisCore
import TrellisTesting
import XCTest

/// Drives the real `trellis` executable through its automation channel (`--automation`):
/// one command line in, one JSON reply line out.
///
/// GUI tests need an X display. The README's test command starts Xvfb and sets
/// `TRELLIS_REQUIRE_GUI=1`, so a missing display fails there instead of skipping silently.
final class AppDriver {
    let process = Process()
    private let input = Pipe()
    private let output = Pipe()
    private let lines = LineReader()
    /// The app's `$XDG_CONFIG_HOME`: a fresh folder per driver unless the test gives one, so
    /// the remembered window size of one run (or of the user) does not leak into another.
    let configHome: URL

    /// The built `trellis` next to the test bundle (or `$TRELLIS_BIN`).
    static var executable: URL {
        if let path = ProcessInfo.processInfo.environment["TRELLIS_BIN"] { return URL(fileURLWithPath: path) }
        let bundle = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
        return bundle.appendingPathComponent("trellis")
    }

    /// Where screenshots go: `$TRELLIS_SCREENSHOT_DIR`, or `.build/screenshots` of the package.
    static var screenshotDirectory: URL {
        let dir = ProcessInfo.processInfo.environment["TRELLIS_SCREENSHOT_DIR"].map { URL(fileURLWithPath: $0) }
            ?? URL(fileURLWithPath: #filePath).deletingLastPathComponent()
                .appendingPathComponent("../../../.build/screenshots").standardizedFileURL
        try? FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        return dir
    }

    /// Skips (or, with `TRELLIS_REQUIRE_GUI=1`, fails) when there is no display.
    static func requireDisplay() throws {
        let env = ProcessInfo.processInfo.environment
        if (env["DISPLAY"] ?? "").isEmpty && (env["WAYLAND_DISPLAY"] ?? "").isEmpty {
            if env["TRELLIS_REQUIRE_GUI"] == "1" {
                XCTFail("no DISPLAY, but TRELLIS_REQUIRE_GUI=1: run the tests through the README's test command")
            }
            throw XCTSkip("GUI test needs a display (the README's test command starts Xvfb)")
        }
    }

    /// Starts the app with `arguments`; `path` (the catalog unless said otherwise, the page most
    /// tests drive) is added when the arguments name none, nil opening the app's own first page.
    init(arguments: [String] = [], path: String? = "/catalog", environment: [String: String] = [:]) throws {
        try Self.requireDisplay()
        process.executableURL = Self.executable
        // A route path is an argument starting with "/" that is not an option's value (a file).
        let givesPath = arguments.indices.contains { arguments[$0].hasPrefix("/") && ($0 == 0 || !arguments[$0 - 1].hasPrefix("--")) }
        process.arguments = ["--automation"] + arguments + (givesPath ? [] : path.map { [$0] } ?? [])
        var env = ProcessInfo.processInfo.environment
        env["GSETTINGS_BACKEND"] = "memory"
        env["NO_AT_BRIDGE"] = "1"
        // Every app gets its own data and settings folders: tests never touch the user's store.
        home = FileManager.default.temporaryDirectory.appendingPathComponent("trellis-gui-\(UUID().uuidString)")
        env["XDG_DATA_HOME"] = home.appendingPathComponent("data").path
        env["XDG_CONFIG_HOME"] = home.appendingPathComponent("config").path
        env["XDG_CACHE_HOME"] = home.appendingPathComponent("cache").path
        configHome = environment["XDG_CONFIG_HOME"].map { URL(fileURLWithPath: $0) } ?? home.appendingPathComponent("config")
        for (key, value) in environment { env[key] = value }
        process.environment = env
        process.standardInput = input
        process.standardOutput = output
        try process.runOneAtATime()
        lines.start(output.fileHandleForReading)
    }

    /// The app's private XDG folders (removed when the driver goes away).
    let home: URL

    deinit {
        if process.isRunning { process.terminate() }
        try? FileManager.default.removeItem(at: home)  // a later driver may reuse it only while this one lives
    }

    /// Dumps the window until `condition` holds (GTK binds new rows on a later frame), up to
    /// `timeout` seconds; returns the last dump.
    @discardableResult
    func dump(until condition: (JSONValue) -> Bool, timeout: TimeInterval = testDeadlineSeconds,
              file: StaticString = #filePath, line: UInt = #line) throws -> JSONValue {
        try send("dump", until: condition, timeout: timeout, file: file, line: line)
    }

    /// Sends `command` again until its reply satisfies `condition`, up to `timeout` seconds;
    /// returns the last reply.
    @discardableResult
    func send(_ command: String, until condition: (JSONValue) -> Bool, timeout: TimeInterval = testDeadlineSeconds,
              file: StaticString = #filePath, line: UInt = #line) throws -> JSONValue {
        let deadline = Date().addingTimeInterval(timeout)
        var screen = try send(command, file: file, line: line)
        while !condition(screen) && Date() < deadline {
            usleep(50_000)
            screen = try send(command, file: file, line: line)
        }
        if !condition(screen) { XCTFail("the window never reached the expected state: \(screen)", file: file, line: line) }
        return screen
    }

    /// Sends one command and waits for its reply.
    @discardableResult
    func send(_ command: String, timeout: TimeInterval = testDeadlineSeconds, file: StaticString = #filePath, line: UInt = #line) throws -> JSONValue {
        input.fileHandleForWriting.write(Data((command + "\n").utf8))
        guard let text = lines.next(timeout: timeout) else {
            XCTFail("no reply to '\(command)' within \(timeout) s (app running: \(process.isRunning))", file: file, line: line)
            throw DriverError.noReply(command)
        }
        let reply = try JSONValue(jsonString: text, source: "reply to \(command)")
        if reply["ok"] != true {
            XCTFail("'\(command)' failed: \(text)", file: file, line: line)
        }
        return reply
    }

    /// Sends one command and returns its raw reply line, whether it succeeded or not.
    func sendRaw(_ command: String, timeout: TimeInterval = testDeadlineSeconds) throws -> String {
        input.fileHandleForWriting.write(Data((command + "\n").utf8))
        guard let text = lines.next(timeout: timeout) else { throw DriverError.noReply(command) }
        return text
    }

    /// The texts of the rows on screen now.
    func visibleRowTexts() throws -> [String] {
        try send("dump")["rows"]?.arrayValue?.compactMap { $0["text"]?.stringValue } ?? []
    }

    /// Waits until the plugins the window loads after its first frame are loaded (no plugin
    /// waits any more): for a test that triggers what a plugin answers, as sync does once
    /// they are.
    func waitForPlugins(file: StaticString = #filePath, line: UInt = #line) throws {
        try dump(until: { $0["pendingWork"] == [] }, file: file, line: line)
        // The last one's `plugin:activated` follows its state; a dump after the next frame
        // comes after what that event queued on the main thread.
        try send("dump", file: file, line: line)
    }

    /// Saves a screenshot named `name`.png and returns its path.
    @discardableResult
    func screenshot(_ name: String) throws -> String {
        let path = Self.screenshotDirectory.appendingPathComponent("\(name).png").path
        try send("screenshot \(path)")
        return path
    }

    /// Closes standard input (the app quits once it has answered everything) and waits.
    func finish(timeout: TimeInterval = testDeadlineSeconds) -> Int32 {
        try? input.fileHandleForWriting.close()
        let deadline = Date().addingTimeInterval(timeout)
        while process.isRunning && Date() < deadline { usleep(20_000) }
        if process.isRunning { process.terminate(); return -1 }
        return process.terminationStatus
    }

    enum DriverError: Error { case noReply(String) }
}

/// Splits a pipe into lines on a background thread.
// All state is guarded by `condition`.
final class LineReader: @unchecked Sendable {
    private let condition = NSCondition()
    private var lines: [String] = []
    private var closed = false

    func start(_ handle: FileHandle) {
        Thread.detachNewThread { [self] in
            var buffer = Data()
            while true {
                let chunk = handle.availableData
                if chunk.isEmpty { break }
                // Only the new bytes can hold a newline (a reply of megabytes must not cost quadratic time).
                var unscanned = buffer.endIndex
                buffer.append(chunk)
                while let newline = buffer[unscanned...].firstIndex(of: UInt8(ascii: "\n")) {
                    let line = String(decoding: buffer[buffer.startIndex..<newline], as: UTF8.self)
                    buffer.removeSubrange(buffer.startIndex...newline)
                    unscanned = buffer.startIndex
                    condition.lock(); lines.append(line); condition.signal(); condition.unlock()
                }
            }
            condition.lock(); closed = true; condition.broadcast(); condition.unlock()
        }
    }

    func next(timeout: TimeInterval) -> String? {
        let deadline = Date().addingTimeInterval(timeout)
        condition.lock()
        defer { condition.unlock() }
        while lines.isEmpty && !closed {
            if !condition.wait(until: deadline) { break }
        }
        return lines.isEmpty ? nil : lines.removeFirst()
    }
}
