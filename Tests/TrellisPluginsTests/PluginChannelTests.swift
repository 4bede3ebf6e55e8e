import Dispatch
import Foundation
import Testing
@testable import TrellisPlugins
import TrellisCore
import TrellisTesting

/// A plugin's socket as the shell reads and writes it (`PluginChannel`), over a socket pair
/// whose other end the test plays the process with.
@Suite("Plugin channel: a socket read and written without blocking")
struct PluginChannelTests {
    /// A channel on one end of a socket pair; the test holds the other (`peer`).
    private final class Pair: Sendable {
        let channel: PluginChannel
        let loop = PluginEventLoop(name: "test.channel")
        let peer: Int32
        let inputs = LockedState<[String]>([])
        /// Whether `onInput` asks the channel to stop reading.
        let pause = LockedState(false)

        init(capacity: Int = 8) throws {
            var sockets: [Int32] = [0, 0]
            guard socketpair(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0, &sockets) == 0 else {
                throw POSIXError(.EMFILE)
            }
            peer = sockets[1]
            let inputs = self.inputs, pause = self.pause
            channel = PluginChannel(descriptor: sockets[0], loop: loop, capacity: capacity)
            channel.start { input in
                switch input {
                case .frame(let frame): inputs.withLock { $0.append("\(frame.op) \(frame.name)") }
                case .malformed(let reason): inputs.withLock { $0.append("malformed: \(reason)") }
                case .closed: inputs.withLock { $0.append("closed") }
                }
                return pause.withLock { $0 }
            }
        }

        /// Writes `bytes` from the peer.
        func write(_ bytes: [UInt8]) {
            _ = bytes.withUnsafeBytes { send(peer, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
        }

        /// Reads what the peer can read now (waiting for at least one byte).
        func read() -> [UInt8] {
            var buffer = [UInt8](repeating: 0, count: 1 << 20)
            let count = buffer.withUnsafeMutableBytes { recv(peer, $0.baseAddress, $0.count, 0) }
            return count > 0 ? Array(buffer[..<count]) : []
        }

        deinit {
            channel.close()
            loop.stop()
            close(peer)
        }
    }

    @Test("frames are read in order, then the end of the stream")
    func readsInOrder() async throws {
        let pair = try Pair()
        pair.write((1...3).flatMap { PluginWire.frame(PluginMessage(.trigger, name: "t:\($0)")) })
        shutdown(pair.peer, Int32(SHUT_WR))
        #expect(await eventually { pair.inputs.withLock { $0 } == ["trigger t:1", "trigger t:2", "trigger t:3", "closed"] },
                "\(pair.inputs.withLock { $0 })")
    }

    @Test("a frame cut short by the end of the stream is malformed, then closed")
    func cutShort() async throws {
        let pair = try Pair()
        pair.write(Array(PluginWire.frame(PluginMessage(.trigger, name: "t:1")).dropLast()))
        shutdown(pair.peer, Int32(SHUT_WR))
        #expect(await eventually { pair.inputs.withLock { $0 } == ["malformed: a frame cut short by the end of the stream (19 bytes)", "closed"] },
                "\(pair.inputs.withLock { $0 })")
    }

    @Test("a channel asked to pause reads nothing more until resumed")
    func pauseAndResume() async throws {
        let pair = try Pair()
        pair.pause.withLock { $0 = true }
        pair.write(PluginWire.frame(PluginMessage(.trigger, name: "t:1")))
        #expect(await eventually { pair.inputs.withLock { $0 } == ["trigger t:1"] })
        pair.write(PluginWire.frame(PluginMessage(.trigger, name: "t:2")))
        // The second frame waits in the socket: the channel reads again only when resumed.
        let probe = PluginWire.frame(PluginMessage(.done))
        pair.write(probe)
        #expect(pair.inputs.withLock { $0 } == ["trigger t:1"])
        pair.pause.withLock { $0 = false }
        pair.channel.resumeReading()
        #expect(await eventually { pair.inputs.withLock { $0 } == ["trigger t:1", "trigger t:2", "done "] }, "\(pair.inputs.withLock { $0 })")
    }

    @Test("what the peer does not read is queued in order, up to the capacity: then send says full")
    func queueAndFull() async throws {
        let pair = try Pair(capacity: 3)
        let big = PluginMessage(.event, number: 1, name: "e", json: Array(repeating: UInt8(ascii: " "), count: 1 << 20))
        var outcomes: [PluginChannel.Outcome] = []
        for _ in 0..<8 { outcomes.append(pair.channel.send(PluginWire.frame(big))) }
        #expect(outcomes.prefix(2) == [.sent, .sent])
        #expect(outcomes.last == .full, "\(outcomes)")
        // The peer reads: what was queued arrives whole and in order.
        var decoder = PluginWire.Decoder()
        var frames: [PluginMessage] = []
        let sent = outcomes.filter { $0 == .sent }.count
        while frames.count < sent {
            frames += try decoder.frames(after: pair.read()[...])
        }
        #expect(frames.count == sent && frames.allSatisfy { $0 == big })
    }

    @Test("after close, send says closed and the peer reads the end of the stream")
    func closing() throws {
        let pair = try Pair()
        pair.channel.close()
        #expect(pair.channel.send(PluginWire.frame(PluginMessage(.done))) == .closed)
        #expect(pair.read() == [])
    }
}
