import Foundation
import TrellisCore

/// The `trellis` window run with `--automation`, driven one command at a time, each answered
/// with a JSON line: what the window benchmarks time.
final class AutomatedWindow {
    private let process = Process()
    private let input = Pipe()
    private let output = Pipe()
    private var buffer = Data()
    /// When the process was started.
    let started: ContinuousClock.Instant

    /// `accessibility`: GTK talks to the accessibility bus (the session's `org.a11y.Bus`), as
    /// it does on a desktop with a screen reader or any AT-SPI client about.
    init(_ trellis: String, arguments: [String], home: URL, accessibility: Bool = false) throws {
        process.executableURL = URL(fileURLWithPath: trellis)
        process.arguments = ["--automation"] + arguments
        process.environment = ProcessEnvironment.current.merging(ProcessRunner.guiEnvironment.merging([
            "XDG_DATA_HOME": home.appendingPathComponent("data").path, "XDG_CONFIG_HOME": home.appendingPathComponent("config").path,
            "NO_AT_BRIDGE": accessibility ? "0" : "1",
        ]) { _, new in new }) { _, new in new }
        process.standardInput = input
        process.standardOutput = output
        process.standardError = FileHandle.nullDevice
        started = .now
        try process.run()
    }

    deinit {
        try? input.fileHandleForWriting.close()
        process.waitUntilExit()
    }

    /// Sends `command` and returns its reply (nil when the window has gone).
    func send(_ command: String) -> JSONValue? {
        input.fileHandleForWriting.write(Data((command + "\n").utf8))
        guard let line = nextLine() else { return nil }
        return try? JSONValue(jsonString: line)
    }

    private func nextLine() -> String? {
        while true {
            if let newline = buffer.firstIndex(of: 0x0A) {
                let line = String(decoding: buffer[buffer.startIndex..<newline], as: UTF8.self)
                buffer.removeSubrange(buffer.startIndex...newline)
                return line
            }
            let chunk = output.fileHandleForReading.availableData
            if chunk.isEmpty { return nil }
            buffer.append(chunk)
        }
    }
}
