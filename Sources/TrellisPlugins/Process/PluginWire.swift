import TrellisCore
import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// One end of the socket between the shell and a plugin process, carrying ``PluginMessage``s
/// in frames:
///
/// ```
/// length  UInt32, little-endian: the bytes after it (at most maximumMessageBytes)
/// op      UInt8 (PluginMessage.Op)
/// number  Int64, little-endian
/// size    UInt32, little-endian: the name's bytes
/// name    UTF-8
/// json    the rest: JSON text, passed through untouched
/// ```
///
/// ``send(_:)`` is safe from any thread (one frame is written whole before the next) and never
/// raises SIGPIPE: a closed peer makes it return false. Receiving belongs to one reader
/// thread, through a ``Reader``.
package final class PluginWire: Sendable {
    /// The largest frame read, in bytes: a longer one ends the connection (a plugin's JSON
    /// arguments are at most 1 MiB, `TRELLIS_PLUGIN_MAX_JSON_SIZE`).
    package static let maximumMessageBytes = 4 * 1024 * 1024
    /// The bytes of a frame before its name: length, op, number, size.
    static let headerBytes = 4 + 1 + 8 + 4

    /// Why a frame could not be read: the connection ends with it.
    package struct Malformed: Error, CustomStringConvertible, Equatable {
        package let reason: String
        package var description: String { reason }
    }

    package let descriptor: Int32
    private let writing = LockedState(())

    package init(descriptor: Int32) {
        self.descriptor = descriptor
    }

    /// `message` in its frame.
    package static func frame(_ message: PluginMessage) -> [UInt8] {
        let name = message.name.utf8
        var frame: [UInt8] = []
        frame.reserveCapacity(headerBytes + name.count + message.json.count)
        append(UInt32(headerBytes - 4 + name.count + message.json.count), to: &frame)
        frame.append(message.op.rawValue)
        append(UInt64(bitPattern: message.number), to: &frame)
        append(UInt32(name.count), to: &frame)
        frame.append(contentsOf: name)
        frame.append(contentsOf: message.json)
        return frame
    }

    private static func append<Integer: FixedWidthInteger>(_ value: Integer, to bytes: inout [UInt8]) {
        for shift in stride(from: 0, to: Integer.bitWidth, by: 8) {
            bytes.append(UInt8(truncatingIfNeeded: value >> shift))
        }
    }

    /// Writes `message`'s frame, waiting while the socket is full; false when the peer is gone.
    @discardableResult
    package func send(_ message: PluginMessage) -> Bool {
        let frame = Self.frame(message)
        return writing.withLock { _ in
            var offset = 0
            while offset < frame.count {
                guard let written = write(frame[offset...], waiting: true) else { return false }
                offset += written
            }
            return true
        }
    }

    /// Writes what it can of `bytes` at once: all of them when `waiting`, else what the socket
    /// takes without blocking (perhaps nothing). Nil when the peer is gone. Callers serialise
    /// their writes (``send(_:)`` with its lock, `PluginOutbox` with its own).
    package func write(_ bytes: ArraySlice<UInt8>, waiting: Bool) -> Int? {
        let flags = Int32(MSG_NOSIGNAL) | (waiting ? 0 : Int32(MSG_DONTWAIT))
        while true {
            // Safe: send(2) reads at most `buffer.count` bytes of the slice, which outlives the call.
            let written = bytes.withUnsafeBytes { buffer in
                Glibc.send(descriptor, buffer.baseAddress, buffer.count, flags)
            }
            if written >= 0 { return written }
            if errno == EINTR { continue }
            if errno == EAGAIN || errno == EWOULDBLOCK { return 0 }
            return nil
        }
    }

    /// Reads messages from a wire's descriptor, on one thread.
    package struct Reader {
        private let descriptor: Int32
        /// Bytes read; those before `start` are handled.
        private var buffer: [UInt8] = []
        private var start = 0
        private var chunk = [UInt8](repeating: 0, count: 64 * 1024)

        package init(_ wire: PluginWire) {
            descriptor = wire.descriptor
        }

        /// The next message; nil at the end of the stream or on a read error. Throws for a
        /// frame over ``PluginWire/maximumMessageBytes``, one that does not decode, or one the
        /// end of the stream cuts short.
        package mutating func next() throws(Malformed) -> PluginMessage? {
            while true {
                let available = buffer.count - start
                if available >= 4 {
                    let length = Int(PluginWire.integer(UInt32.self, in: buffer[...], at: start))
                    guard length <= PluginWire.maximumMessageBytes else {
                        var reason = "a frame of \(length) bytes, over the limit of \(PluginWire.maximumMessageBytes)"
                        if buffer[start] == UInt8(ascii: "{") {
                            // What a trellis-plugin-host from before the framed wire sends.
                            reason += "; it begins with \"{\" as a line of JSON does, the wire of earlier builds: are the shell and trellis-plugin-host from the same build?"
                        }
                        throw Malformed(reason: reason)
                    }
                    if available >= 4 + length {
                        let body = buffer[(start + 4)..<(start + 4 + length)]
                        start += 4 + length
                        return try PluginWire.message(in: body)
                    }
                }
                if start > 0 {
                    buffer.removeFirst(start)
                    start = 0
                }
                // Safe: read(2) writes at most `count` bytes into the chunk, which outlives the call.
                let count = chunk.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
                if count < 0 && errno == EINTR { continue }
                guard count > 0 else {
                    guard buffer.isEmpty else {
                        throw Malformed(reason: "a frame cut short by the end of the stream (\(buffer.count) bytes)")
                    }
                    return nil
                }
                buffer.append(contentsOf: chunk[..<count])
            }
        }
    }

    /// The message in a frame's `body` (the bytes after its length).
    static func message(in body: ArraySlice<UInt8>) throws(Malformed) -> PluginMessage {
        guard body.count >= headerBytes - 4 else {
            throw Malformed(reason: "a frame of \(body.count) bytes, shorter than its header")
        }
        let at = body.startIndex
        guard let op = PluginMessage.Op(rawValue: body[at]) else {
            throw Malformed(reason: "a frame of unknown kind \(body[at])")
        }
        let number = Int64(bitPattern: integer(UInt64.self, in: body, at: at + 1))
        let size = Int(integer(UInt32.self, in: body, at: at + 9))
        let nameStart = at + headerBytes - 4
        guard size <= body.endIndex - nameStart else {
            throw Malformed(reason: "a name of \(size) bytes in a frame of \(body.count)")
        }
        guard let name = String(validating: body[nameStart..<(nameStart + size)], as: UTF8.self) else {
            throw Malformed(reason: "a name that is not UTF-8")
        }
        return PluginMessage(op, number: number, name: name, json: Array(body[(nameStart + size)...]))
    }

    /// The little-endian integer at `index` of `bytes` (the caller checked it is all there).
    private static func integer<Integer: UnsignedInteger & FixedWidthInteger>(_: Integer.Type, in bytes: ArraySlice<UInt8>,
                                                                            at index: Int) -> Integer {
        (0..<(Integer.bitWidth / 8)).reduce(0) { value, byte in value | Integer(bytes[index + byte]) << (byte * 8) }
    }
}
