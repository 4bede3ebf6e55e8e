import Foundation
import PropertyBased
import Testing
import TrellisCore
@testable import TrellisPlugins
import TrellisPluginABI
import TrellisTesting

/// What a plugin hands the host through the C ABI — a name and JSON text for `trigger`,
/// `navigate` and `handle_request` — called through the real host table with hostile bytes:
/// the host never crashes, acts exactly when the arguments are a non-empty UTF-8 name and
/// well-formed UTF-8 JSON within the size limit, and otherwise refuses with
/// `TRELLIS_ERROR_INVALID_ARGUMENT`, logging an error that names the plugin and the function.
@Suite("Fuzz: JSON crossing the plugin ABI")
struct PluginCallFuzzTests {
    /// Text, or bytes that are often not UTF-8 (a NUL ends the C string early).
    static let argument = Gen.oneOf(
        Hostile.jsonText.map { Array($0.utf8) },
        Hostile.jsonText.map { Array($0.utf8) + [0xFF] },
        Hostile.bytes,
        Gen.element(of: ["network:on", "/notes/5", "note.save", "", "é", "\u{0}x"]).map { Array(($0 ?? "").utf8) }
    )

    @Test("hostile names and payloads are acted on exactly when valid, otherwise refused and logged")
    func hostFunctions() async {
        let host = HostUnderTest()
        await propertyCheck(count: 4000, input: Gen<HostUnderTest.Function>.case, Self.argument, Self.argument) {
            function, name, json in
            await Hostile.yieldToOtherTests()
            host.check(function, name: name, json: json)
        }
    }

    @Test("a NULL name is refused and a NULL payload means null")
    func nullPointers() {
        let host = HostUnderTest()
        for function in HostUnderTest.Function.allCases {
            #expect(host.call(function, nil, nil) == TRELLIS_ERROR_INVALID_ARGUMENT)
            #expect(host.call(function, Array("name".utf8), nil) == TRELLIS_OK)
            #expect(host.takeReceived() == ["name null"])
        }
    }

    @Test("a payload is refused one byte over 1 MiB and accepted at exactly 1 MiB", arguments: HostUnderTest.Function.allCases)
    func sizeLimit(function: HostUnderTest.Function) {
        let host = HostUnderTest()
        let limit = Int(TRELLIS_PLUGIN_MAX_JSON_SIZE)
        let fits = Array("\"".utf8) + Array(repeating: UInt8(ascii: "a"), count: limit - 2) + Array("\"".utf8)
        #expect(host.call(function, Array("big".utf8), fits) == TRELLIS_OK)
        #expect(host.takeReceived().first?.utf8.count == limit + 4)
        let over = Array("\"".utf8) + Array(repeating: UInt8(ascii: "a"), count: limit - 1) + Array("\"".utf8)
        #expect(host.call(function, Array("big".utf8), over) == TRELLIS_ERROR_INVALID_ARGUMENT)
        #expect(host.takeReceived().isEmpty)
        #expect(host.logs.entries.last?.message
                == "plugin \"fuzz\": \(function.rawValue) \"big\": refused: \(limit + 1) bytes of JSON is over the limit of \(limit) bytes")
    }
}

/// A plugin context on a real bus with a real host table, recording what reaches the bus,
/// the navigator and the front controller as "name data" lines.
final class HostUnderTest: Sendable {
    /// The host functions that take a name and JSON.
    enum Function: String, CaseIterable, Sendable {
        case trigger, navigate, handle_request
    }

    let bus = EventBus()
    let logs = LogCapture()
    private let received: LockedState<[String]>
    // Written once in init, then only read; the host functions may be called from any thread.
    nonisolated(unsafe) private let table: UnsafePointer<trellis_host_api>

    init() {
        let received = LockedState<[String]>([])
        self.received = received
        let context = PluginContext(pluginID: "fuzz", declaredServices: [], permissions: PluginPermissions(grants: [.trigger: ["*"], .watch: ["*"], .request: ["*"]]), bus: bus,
                                    logger: logs.logger(), isPublicRoute: { _ in nil },
                                    navigate: { request in received.withLock { $0.append("\(request.path) \(request.data)") } },
                                    handleRequest: { command, data in received.withLock { $0.append("\(command) \(data)") } })
        context.setPhase(.active)
        table = HostAPITable.make(for: context)
        bus.watch("*", owner: self) { host, event in host.received.withLock { $0.append("\(event.message) \(event.data)") } }
    }

    /// Calls `function` with the bytes as C strings (`nil` for NULL).
    func call(_ function: Function, _ name: [UInt8]?, _ json: [UInt8]?) -> Int32 {
        Self.withCString(name) { name in
            Self.withCString(json) { json in
                switch function {
                case .trigger: table.pointee.trigger(table.pointee.context, name, json)
                case .navigate: table.pointee.navigate(table.pointee.context, name, json)
                case .handle_request: table.pointee.handle_request(table.pointee.context, name, json)
                }
            }
        }
    }

    /// What arrived since the last call, emptied.
    func takeReceived() -> [String] {
        received.withLock { lines in
            defer { lines = [] }
            return lines
        }
    }

    /// Calls `function` and checks the outcome against an oracle built from the standard
    /// library: the C strings end at the first NUL; both must be UTF-8, the name non-empty,
    /// the JSON at most 1 MiB and well formed.
    func check(_ function: Function, name: [UInt8], json: [UInt8]) {
        let logged = logs.entries.count
        let status = call(function, name, json)
        let nameText = String(validating: name.prefix { $0 != 0 }, as: UTF8.self)
        let jsonBytes = json.prefix { $0 != 0 }
        let data = String(validating: jsonBytes, as: UTF8.self).flatMap { try? JSONValue(jsonString: $0) }
        let expected: String? = if let nameText, !nameText.isEmpty, let data, jsonBytes.count <= PluginCallArguments.maximumJSONBytes {
            "\(nameText) \(data)"
        } else {
            nil
        }
        let arrived = takeReceived()
        if let expected {
            #expect(status == TRELLIS_OK)
            #expect(arrived == [expected])
        } else {
            #expect(status == TRELLIS_ERROR_INVALID_ARGUMENT)
            #expect(arrived.isEmpty)
            let message = logs.entries.dropFirst(logged).first { $0.level == .error }?.message ?? ""
            #expect(message.hasPrefix("plugin \"fuzz\": \(function.rawValue)"), "logged: \(message)")
            #expect(!message.contains("\n"), "one line: \(message)")
        }
    }

    private static func withCString<R>(_ bytes: [UInt8]?, _ body: (UnsafePointer<CChar>?) -> R) -> R {
        guard let bytes else { return body(nil) }
        return (bytes + [0]).withUnsafeBufferPointer { buffer in
            buffer.withMemoryRebound(to: CChar.self) { body($0.baseAddress) }
        }
    }
}
