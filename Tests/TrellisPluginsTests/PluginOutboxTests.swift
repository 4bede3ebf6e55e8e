import Foundation
import Testing
@testable import TrellisPlugins
import TrellisCore

/// The shell's writes to a plugin process (see `PluginOutbox`): at once when the socket takes
/// them, queued while the plugin does not read, never out of order or cut; a plugin that does
/// not read at all fills the queue, and the outbox says so.
@Suite("Plugin outbox: writing to a plugin that may not read")
struct PluginOutboxTests {
    /// An outbox on one end of a socket pair (it closes that end), and the other end.
    private static func pair(capacity: Int) throws -> (PluginOutbox, plugin: Int32) {
        var sockets: [Int32] = [0, 0]
        guard socketpair(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0, &sockets) == 0 else {
            throw POSIXError(.EMFILE)
        }
        return (PluginOutbox(wire: PluginWire(descriptor: sockets[0]), label: "test.outbox", capacity: capacity), sockets[1])
    }

    private static func frame(_ number: Int) -> [UInt8] {
        PluginWire.frame(PluginMessage(.event, number: Int64(number), name: "test:event",
                                       json: Array(repeating: UInt8(ascii: " "), count: 1000) + Array("null".utf8)))
    }

    @Test("while the plugin does not read, frames are queued up to the capacity, then refused; read, they all arrive in order")
    func fillsUp() throws {
        let (outbox, plugin) = try Self.pair(capacity: 16)
        defer { close(plugin) }
        var sent = 0
        while outbox.send(Self.frame(sent)) == .sent, sent < 100_000 {
            sent += 1
        }
        #expect(sent < 100_000, "the socket never filled")
        #expect(outbox.queued == 16)
        #expect(outbox.send(Self.frame(sent)) == .full)

        var reader = PluginWire.Reader(PluginWire(descriptor: plugin))
        for number in 0..<sent {
            let message = try #require(try reader.next())
            #expect(message.number == Int64(number) && message.name == "test:event" && message.json.count == 1004)
        }
    }

    @Test("once the plugin's end is closed, sending says so")
    func closed() throws {
        let (outbox, plugin) = try Self.pair(capacity: 16)
        close(plugin)
        #expect(outbox.send(Self.frame(0)) == .closed)
        #expect(outbox.send(Self.frame(1)) == .closed)
    }
}
