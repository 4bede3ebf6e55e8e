import CGtk
import Foundation
import TrellisCore

/// A line-based control channel on standard input, for GUI tests and benchmarks that drive the
/// real window (`trellis --automation`).
///
/// Each input line is one command: a word and an optional argument (`activate 3`,
/// `search фэнтези`, `trigger network:on {"x":1}`). Every command gets exactly one reply line
/// on standard output: a JSON object, `{"ok":true,…}` or `{"ok":false,"error":"…"}`.
/// Replies may come later than the command (for example after the next frame is painted),
/// but always in command order. End of input quits the application once every command read
/// before it has been answered.
///
/// A test hook, not API: reached with `@_spi(Testing) import TrellisGtk`.
@_spi(Testing)
@MainActor
public final class AutomationChannel {
    /// Handles one command; calls `reply` exactly once, now or later.
    public typealias Handler = (_ command: String, _ argument: String, _ reply: @escaping (JSONValue) -> Void) -> Void

    private let handler: Handler
    private let onEndOfInput: () -> Void
    private var buffer: [UInt8] = []
    private var queue: [(String, String)] = []
    private var busy = false
    private var inputEnded = false
    private var sourceID: guint = 0

    public init(handler: @escaping Handler, onEndOfInput: @escaping () -> Void) {
        self.handler = handler
        self.onEndOfInput = onEndOfInput
    }

    /// Starts reading standard input from the GLib main loop.
    public func start() {
        let box = Unmanaged.passRetained(self).toOpaque()
        let callback: GUnixFDSourceFunc = { fd, _, data in
            let channel = Unmanaged<AutomationChannel>.fromOpaque(data!).takeUnretainedValue()
            return MainActor.assumeIsolated { channel.readAvailable(fd: fd) ? 1 : 0 }
        }
        let release: GDestroyNotify = { data in Unmanaged<AutomationChannel>.fromOpaque(data!).release() }
        sourceID = g_unix_fd_add_full(G_PRIORITY_DEFAULT, 0, GIOCondition(rawValue: G_IO_IN.rawValue | G_IO_HUP.rawValue),
                                      callback, box, release)
    }

    /// Reads what is there; returns `false` (removing the source) at end of input.
    private func readAvailable(fd: Int32) -> Bool {
        var chunk = [UInt8](repeating: 0, count: 65_536)
        let n = chunk.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
        if n <= 0 {
            if n < 0, errno == EINTR || errno == EAGAIN { return true }
            inputEnded = true
            runNext()
            return false
        }
        // Only the new bytes can hold a newline: scanning the whole buffer again made a
        // command of megabytes (a pasted text) cost quadratic time.
        var unscanned = buffer.count
        buffer.append(contentsOf: chunk[0..<n])
        while let newline = buffer[unscanned...].firstIndex(of: UInt8(ascii: "\n")) {
            let line = String(decoding: buffer[..<newline], as: UTF8.self).trimmingCharacters(in: .whitespaces)
            buffer.removeSubrange(...newline)
            unscanned = 0
            guard !line.isEmpty else { continue }
            let parts = line.split(separator: " ", maxSplits: 1)
            queue.append((String(parts[0]), parts.count > 1 ? String(parts[1]) : ""))
        }
        runNext()
        return true
    }

    private func runNext() {
        guard !busy else { return }
        guard !queue.isEmpty else {
            if inputEnded { onEndOfInput() }
            return
        }
        busy = true
        let (command, argument) = queue.removeFirst()
        var replied = false
        // The reply keeps the channel alive until it is sent, even after end of input has
        // removed the fd source (which held the other reference).
        handler(command, argument) { value in
            guard !replied else { return }
            replied = true
            FileHandle.standardOutput.write(Data((value.jsonString + "\n").utf8))
            self.busy = false
            self.runNext()
        }
    }
}
