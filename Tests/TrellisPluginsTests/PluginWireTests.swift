import Foundation
import Testing
@testable import TrellisPlugins
import TrellisCore

/// The frames between the shell and a plugin process (see `PluginWire`), over a socket pair:
/// what one end sends the other reads, however the bytes arrive; a frame that is too long,
/// does not decode or is cut short is an error, never a message.
@Suite("Plugin wire: frames over a socket")
struct PluginWireTests {
    /// A connected pair of wires; the descriptors are closed when the pair is released.
    private final class Pair: Sendable {
        let shell: PluginWire
        let plugin: PluginWire

        init() throws {
            var sockets: [Int32] = [0, 0]
            guard socketpair(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0, &sockets) == 0 else {
                throw POSIXError(.EMFILE)
            }
            shell = PluginWire(descriptor: sockets[0])
            plugin = PluginWire(descriptor: sockets[1])
        }

        /// Writes `bytes` from the plugin's end, `step` bytes at a time, on a thread of its own;
        /// then ends the plugin's side of the stream.
        func write(_ bytes: [UInt8], step: Int) {
            Thread.detachNewThread { [self] in
                for start in stride(from: 0, to: bytes.count, by: step) {
                    _ = plugin.write(bytes[start..<min(start + step, bytes.count)], waiting: true)
                }
                closePlugin()
            }
        }

        /// Ends the plugin's side of the stream.
        func closePlugin() {
            shutdown(plugin.descriptor, Int32(SHUT_WR))
        }

        deinit {
            close(shell.descriptor)
            close(plugin.descriptor)
        }
    }

    private static let messages: [PluginMessage] = [
        PluginMessage(.trigger, name: "hello:pong", json: Array(#"{"n": 1, "title": "Фэнтези"}"#.utf8)),
        PluginMessage(.event, number: 7, name: "note:saved"),
        PluginMessage(.log, number: -1, name: "a line\nand another, with a NUL: \u{0}"),
        PluginMessage(.done),
        PluginMessage(.started, number: Int64.max, value: ["status": 0, "error": ""]),
        PluginMessage(.settings, json: Array(repeating: UInt8(ascii: " "), count: 1 << 20) + Array("[]".utf8)),
    ]

    @Test("what one end sends, the other reads, in order and unchanged; then the end of the stream", arguments: [7, 1 << 16])
    func roundTrip(step: Int) throws {
        let pair = try Pair()
        pair.write(Self.messages.flatMap(PluginWire.frame), step: step)
        var reader = PluginWire.Reader(pair.shell)
        for expected in Self.messages {
            #expect(try reader.next() == expected)
        }
        #expect(try reader.next() == nil)
    }

    @Test("send writes a whole frame from any thread; a message's JSON is carried, not parsed")
    func sendFromThreads() async throws {
        let pair = try Pair()
        let threads = 4, each = 50
        await withTaskGroup(of: Void.self) { group in
            for thread in 0..<threads {
                group.addTask {
                    for n in 0..<each { pair.plugin.send(PluginMessage(.trigger, number: Int64(thread), name: "t:\(n)", json: Array("not JSON".utf8))) }
                }
            }
        }
        var reader = PluginWire.Reader(pair.shell)
        var next = [Int](repeating: 0, count: threads)
        for _ in 0..<(threads * each) {
            let message = try #require(try reader.next())
            let thread = Int(message.number)
            #expect(message.name == "t:\(next[thread])" && message.json == Array("not JSON".utf8))
            next[thread] += 1
        }
        #expect(next == [each, each, each, each])
        #expect(PluginMessage(.trigger, json: Array("not JSON".utf8)).value == nil)
    }

    @Test("a frame that is too long, does not decode or is cut short is an error that says which")
    func malformed() throws {
        let frame = PluginWire.frame(PluginMessage(.trigger, name: "wire:x", json: Array("null".utf8)))
        var unknown = frame
        unknown[4] = 0
        var longName = frame
        longName[13] = 200
        let cases: [([UInt8], String)] = [
            ([0x01, 0x00, 0x40, 0x00], "a frame of 4194305 bytes, over the limit of 4194304"),
            (unknown, "a frame of unknown kind 0"),
            (longName, "a name of 200 bytes in a frame of 23"),
            ([3, 0, 0, 0, 20, 0, 0], "a frame of 3 bytes, shorter than its header"),
            (Array(frame.dropLast()), "a frame cut short by the end of the stream (26 bytes)"),
        ]
        for (bytes, reason) in cases {
            let pair = try Pair()
            pair.write(bytes, step: bytes.count)
            var reader = PluginWire.Reader(pair.shell)
            #expect(throws: PluginWire.Malformed(reason: reason)) { try reader.next() }
        }
    }
}
