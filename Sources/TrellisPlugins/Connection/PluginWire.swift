import TrellisCore

/// The frames that carry ``PluginMessage``s between the shell and a plugin process (GIMP's
/// wire: a small fixed header, then the payload):
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
/// Framing only: ``frame(_:)`` makes the bytes of a message, a ``Decoder`` cuts bytes read into
/// messages. The socket belongs to ``PluginChannel``; the process's side is written in C
/// (`trellis-plugin-host`) to the same layout.
package enum PluginWire {
    /// The largest frame read, in bytes: a longer one ends the connection (a plugin's JSON
    /// arguments are at most 1 MiB, `TRELLIS_PLUGIN_MAX_JSON_SIZE`).
    package static let maximumMessageBytes = 4 * 1024 * 1024
    /// The bytes of a frame before its name: length, op, number, size.
    static let headerBytes = 4 + 1 + 8 + 4

    /// Why a frame could not be read: the connection ends with it.
    package struct Malformed: Error, CustomStringConvertible, Equatable {
        package let reason: String
        package var description: String { reason }
        package init(reason: String) { self.reason = reason }
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

    /// Cuts bytes read from a plugin process into frames, whatever chunks they come in.
    package struct Decoder: Sendable {
        /// Bytes read; those before `start` are handled.
        private var buffer: [UInt8] = []
        private var start = 0

        package init() {}

        /// Bytes held that do not make a whole frame yet.
        package var buffered: Int { buffer.count - start }

        /// The frames that `bytes`, after what came before, complete. Throws for a frame over
        /// ``PluginWire/maximumMessageBytes`` or one that does not decode; the decoder is of no
        /// use afterwards.
        package mutating func frames(after bytes: ArraySlice<UInt8>) throws(Malformed) -> [PluginMessage] {
            buffer.append(contentsOf: bytes)
            var frames: [PluginMessage] = []
            while buffer.count - start >= 4 {
                let length = Int(PluginWire.integer(UInt32.self, in: buffer[...], at: start))
                guard length <= PluginWire.maximumMessageBytes else {
                    var reason = "a frame of \(length) bytes, over the limit of \(PluginWire.maximumMessageBytes)"
                    if buffer[start] == UInt8(ascii: "{") {
                        // What a trellis-plugin-host from before the framed wire sends.
                        reason += "; it begins with \"{\" as a line of JSON does, the wire of earlier builds: are the shell and trellis-plugin-host from the same build?"
                    }
                    throw Malformed(reason: reason)
                }
                guard buffer.count - start >= 4 + length else { break }
                frames.append(try PluginWire.message(in: buffer[(start + 4)..<(start + 4 + length)]))
                start += 4 + length
            }
            if start == buffer.count {
                buffer.removeAll(keepingCapacity: true)
                start = 0
            } else if start > 64 * 1024 {
                buffer.removeFirst(start)
                start = 0
            }
            return frames
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
    fileprivate static func integer<Integer: UnsignedInteger & FixedWidthInteger>(_: Integer.Type, in bytes: ArraySlice<UInt8>,
                                                                            at index: Int) -> Integer {
        (0..<(Integer.bitWidth / 8)).reduce(0) { value, byte in value | Integer(bytes[index + byte]) << (byte * 8) }
    }
}
