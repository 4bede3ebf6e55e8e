import TrellisCore
import TrellisPlugins
#if canImport(Glibc)
import Glibc
#endif

/// This process's end of the socket to the shell: frames written whole, one at a time, from
/// any thread of the plugin's; read by the main thread.
final class BlockingWire: Sendable {
    let descriptor: Int32
    private let writing = LockedState(())

    init(descriptor: Int32) {
        self.descriptor = descriptor
    }

    /// Writes `message`'s frame, waiting while the socket is full; false when the shell is gone.
    @discardableResult
    func send(_ message: PluginMessage) -> Bool {
        let frame = PluginWire.frame(message)
        return writing.withLock { _ in
            var offset = 0
            while offset < frame.count {
                // The C boundary: send(2) reads at most the slice's count of bytes, and the
                // slice outlives the call.
                let written = frame[offset...].withUnsafeBytes { Glibc.send(descriptor, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
                if written < 0 && errno == EINTR { continue }
                guard written > 0 else { return false }
                offset += written
            }
            return true
        }
    }

    /// Reads the shell's messages, on one thread.
    struct Reader {
        private let descriptor: Int32
        private var decoder = PluginWire.Decoder()
        private var ready: [PluginMessage] = []
        private var chunk = [UInt8](repeating: 0, count: 64 * 1024)

        init(_ wire: BlockingWire) {
            descriptor = wire.descriptor
        }

        /// The next message; nil at the end of the stream. Throws for a frame it cannot read.
        mutating func next() throws(PluginWire.Malformed) -> PluginMessage? {
            while ready.isEmpty {
                // The C boundary: read(2) writes at most `count` bytes into the chunk, which
                // outlives the call.
                let count = chunk.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
                if count < 0 && errno == EINTR { continue }
                guard count > 0 else {
                    guard decoder.buffered == 0 else {
                        throw PluginWire.Malformed(reason: "a frame cut short by the end of the stream (\(decoder.buffered) bytes)")
                    }
                    return nil
                }
                ready = try decoder.frames(after: chunk[..<count])
            }
            return ready.removeFirst()
        }
    }
}
