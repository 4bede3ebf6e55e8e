import Foundation
import Testing
@testable import TrellisPlugins
import TrellisCore

/// The frames between the shell and a plugin process (see `PluginWire`): what is framed is read
/// back, however the bytes are cut; a frame that is too long or does not decode is an error,
/// never a message; and each kind of message a process sends decodes into its own case.
@Suite("Plugin wire: frames and messages")
struct PluginWireTests {
    private static let messages: [PluginMessage] = [
        PluginMessage(.trigger, name: "hello:pong", json: Array(#"{"n": 1, "title": "Фэнтези"}"#.utf8)),
        PluginMessage(.event, number: 7, name: "note:saved"),
        PluginMessage(.log, number: -1, name: "a line\nand another, with a NUL: \u{0}"),
        PluginMessage(.done),
        PluginMessage(.started, number: Int64.max, value: ["status": 0, "error": ""]),
        PluginMessage(.settings, json: Array(repeating: UInt8(ascii: " "), count: 1 << 20) + Array("[]".utf8)),
    ]

    @Test("what is framed is read back in order and unchanged, whatever chunks the bytes come in", arguments: [1, 7, 1 << 16])
    func roundTrip(step: Int) throws {
        let bytes = Self.messages.flatMap(PluginWire.frame)
        var decoder = PluginWire.Decoder()
        var read: [PluginMessage] = []
        for start in stride(from: 0, to: bytes.count, by: step) {
            read += try decoder.frames(after: bytes[start..<min(start + step, bytes.count)])
        }
        #expect(read == Self.messages)
        #expect(decoder.buffered == 0)
    }

    @Test("a frame that is too long or does not decode is an error that says which")
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
            (Array(#"{"op": "entry"}"#.utf8),
             #"a frame of 1886331515 bytes, over the limit of 4194304; it begins with "{" as a line of JSON does, the wire of earlier builds: are the shell and trellis-plugin-host from the same build?"#),
        ]
        for (bytes, reason) in cases {
            var decoder = PluginWire.Decoder()
            #expect(throws: PluginWire.Malformed(reason: reason)) { try decoder.frames(after: bytes[...]) }
        }
        var decoder = PluginWire.Decoder()
        #expect(try decoder.frames(after: frame.dropLast()).isEmpty)
        #expect(decoder.buffered == frame.count - 1, "a frame cut short waits for its end")
    }

    @Test("each message a process sends decodes into its kind, its JSON decoded once")
    func processMessages() throws {
        let cases: [(PluginMessage, ProcessMessage)] = [
            (PluginMessage(.trigger, name: "a:b", json: Array(#"{"x":[1]}"#.utf8)), .trigger(message: "a:b", data: ["x": [1]])),
            (PluginMessage(.trigger, name: "a:b"), .trigger(message: "a:b", data: .null)),
            (PluginMessage(.navigate, name: "/notes/5", json: Array("null".utf8)), .navigate(path: "/notes/5", data: .null)),
            (PluginMessage(.request, name: "save", json: Array("{}".utf8)), .request(command: "save", parameters: [:])),
            (PluginMessage(.watch, number: 3, name: "net:*"), .watch(id: 3, pattern: "net:*")),
            (PluginMessage(.unwatch, number: 3), .unwatch(id: 3)),
            (PluginMessage(.log, number: 4, name: "careful"), .log(level: .warning, text: "careful")),
            (PluginMessage(.log, number: 99, name: "loud"), .log(level: .critical, text: "loud")),
            (PluginMessage(.started, number: 2, value: ["status": -1, "error": "no"]), .started(request: 2, status: -1, error: "no")),
            (PluginMessage(.stopped, number: 2), .stopped(request: 2)),
            (PluginMessage(.done), .done),
            (PluginMessage(.register, name: "svc"), .register(service: "svc")),
            (PluginMessage(.refuse), .refuse(reason: "a registration was refused")),
        ]
        for (frame, expected) in cases {
            #expect(try ProcessMessage(frame: frame) == expected)
        }
        let entry = try ProcessMessage(frame: PluginMessage(.entry, value: ["info": ["abiVersion": 2, "size": 16, "refusal": nil]]))
        guard case .entry(let info) = entry else { Issue.record("\(entry)"); return }
        #expect(info.info == PluginEntry.Info(abiVersion: 2, size: 16, refusal: nil))
        #expect(info.failure == nil)
    }

    @Test("a message that breaks the protocol is an error naming why: the shell stops that process")
    func protocolBreaches() throws {
        let cases: [(PluginMessage, String)] = [
            (PluginMessage(.trigger, name: "a:b", json: Array("not JSON".utf8)), #"trigger "a:b": its data is not JSON"#),
            (PluginMessage(.trigger, json: Array("{}".utf8)), "trigger without a name"),
            (PluginMessage(.trigger, name: String(repeating: "x", count: 5000)), "trigger with a name of 5000 bytes, over the limit of 4096"),
            (PluginMessage(.started, number: 1, value: ["error": "?"]), "started without a status"),
            (PluginMessage(.event, number: 1, name: "x"), "a message only the shell sends (event)"),
        ]
        for (frame, reason) in cases {
            #expect(throws: PluginWire.Malformed(reason: reason)) { try ProcessMessage(frame: frame) }
        }
    }
}
