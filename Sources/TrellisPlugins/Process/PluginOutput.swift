import TrellisCore
import Foundation

/// What a plugin's process writes to stderr: passed on to the shell's stderr as it comes, and
/// its last lines kept for the report of a crash.
final class PluginOutput: Sendable {
    /// The lines kept for the report of a crash.
    static let keptLines = 10
    /// The longest line kept, in characters (the rest is cut).
    static let keptLineLength = 300

    private let lines = LockedState<[String]>([])
    private let done = DispatchSemaphore(value: 0)

    /// The last lines read so far, oldest first.
    var lastLines: [String] { lines.withLock { $0 } }

    /// Reads `descriptor` on a thread of its own until its end, then closes it.
    func follow(_ descriptor: Int32) {
        Thread.detachNewThread { self.readToEnd(descriptor) }
    }

    /// Waits until the output has reached its end, at most `timeout`.
    func waitForEnd(timeout: DispatchTime) {
        if done.wait(timeout: timeout) == .success { done.signal() }  // for any other waiter
    }

    private func readToEnd(_ descriptor: Int32) {
        defer { close(descriptor); done.signal() }
        var pending: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 4096)
        while true {
            // The C boundary: `read` writes at most the buffer's count of bytes into it, and
            // `write` reads the `count` bytes it got; the buffer outlives both calls.
            let count = chunk.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
            if count < 0 && errno == EINTR { continue }
            guard count > 0 else { break }
            _ = chunk.withUnsafeBytes { write(STDERR_FILENO, $0.baseAddress, count) }
            pending.append(contentsOf: chunk[..<count])
            while let newline = pending.firstIndex(of: UInt8(ascii: "\n")) {
                keep(String(decoding: pending[..<newline], as: UTF8.self))
                pending.removeSubrange(...newline)
            }
        }
        if !pending.isEmpty { keep(String(decoding: pending, as: UTF8.self)) }
    }

    private func keep(_ line: String) {
        lines.withLock { lines in
            lines.append(String(line.prefix(Self.keptLineLength)))
            if lines.count > Self.keptLines { lines.removeFirst() }
        }
    }
}
