import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// One end of the socket between the shell and a plugin process: messages are JSON objects,
/// one per line (JSON text escapes every newline inside strings, so a line is a message).
///
/// Sending is safe from any thread (one message is written whole before the next) and never
/// raises SIGPIPE: a closed peer makes ``send(_:)`` return false. Receiving belongs to one
/// reader thread, through a ``Reader``.
package final class PluginWire: Sendable {
    /// The largest message read, in bytes; a longer line ends the connection (a plugin's JSON
    /// arguments are at most 1 MiB, `TRELLIS_PLUGIN_MAX_JSON_SIZE`).
    package static let maximumMessageBytes = 4 * 1024 * 1024

    package let descriptor: Int32
    private let writing = LockedState(())

    package init(descriptor: Int32) {
        self.descriptor = descriptor
    }

    /// Writes `message` and a newline; false when the peer is gone.
    @discardableResult
    package func send(_ message: JSONValue) -> Bool {
        let bytes = Array((message.jsonString + "\n").utf8)
        return writing.withLock { _ in
            var offset = 0
            while offset < bytes.count {
                let written = bytes[offset...].withUnsafeBytes { buffer in
                    Glibc.send(descriptor, buffer.baseAddress, buffer.count, Int32(MSG_NOSIGNAL))
                }
                if written < 0 {
                    if errno == EINTR { continue }
                    return false
                }
                offset += written
            }
            return true
        }
    }

    /// Reads messages from a wire's descriptor, on one thread.
    package struct Reader {
        private let descriptor: Int32
        private var buffer: [UInt8] = []
        private var scanned = 0

        package init(_ wire: PluginWire) {
            descriptor = wire.descriptor
        }

        /// The next message; nil at the end of the stream, on a read error, or when a line
        /// is not a JSON object or is over ``PluginWire/maximumMessageBytes``.
        package mutating func next() -> JSONValue? {
            while true {
                if let newline = buffer[scanned...].firstIndex(of: UInt8(ascii: "\n")) {
                    let line = buffer[..<newline]
                    defer { buffer.removeSubrange(...newline); scanned = 0 }
                    guard let message = try? JSONValue(jsonData: Data(line)), message.objectValue != nil else { return nil }
                    return message
                }
                scanned = buffer.count
                guard buffer.count <= PluginWire.maximumMessageBytes else { return nil }
                var chunk = [UInt8](repeating: 0, count: 64 * 1024)
                let count = chunk.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
                if count < 0 && errno == EINTR { continue }
                guard count > 0 else { return nil }
                buffer.append(contentsOf: chunk[..<count])
            }
        }
    }
}
