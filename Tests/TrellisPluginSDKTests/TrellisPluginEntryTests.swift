import Foundation
import Testing
@testable import TrellisPluginSDK

/// A service that records its life in a shared journal and fails when told to.
final class JournalService: PluginService {
    static let name = "journal"
    static let journal = NSLockedJournal()
    private let bus: PluginBus

    init(host: TrellisHost) {
        bus = host.bus
        Self.journal.append("init")
    }

    func start(options: JSONValue) throws {
        if let failure = options["fail"]?.stringValue { throw Failure(message: failure) }
        Self.journal.append("start \(options)")
        bus.watch("journal:*", owner: self) { _, _ in }
        bus.trigger("journal:started", options)
    }

    func stop(options: JSONValue) {
        Self.journal.append("stop \(options)")
    }

    struct Failure: Error, CustomStringConvertible {
        let message: String
        var description: String { message }
    }
}

/// Lines appended from any thread.
// @unchecked Sendable: `lines` is only touched under `lock`.
final class NSLockedJournal: @unchecked Sendable {
    private let lock = NSLock()
    private var lines: [String] = []
    func append(_ line: String) { lock.withLock { lines.append(line) } }
    func take() -> [String] { lock.withLock { defer { lines = [] }; return lines } }
}

@Suite("TrellisPlugin entry", .serialized)
struct TrellisPluginEntryTests {
    @Test("refuses a host older than the SDK, with the versions, and registers nothing")
    func refusesOldHost() throws {
        let host = FakeHost()
        var table = host.table(abiVersion: 0)
        let info = try #require(TrellisPlugin.entry(&table, services: [JournalService.self]))
        #expect(info.pointee.abi_version == UInt32(TRELLIS_PLUGIN_ABI_VERSION))
        let refusal = try #require(info.pointee.refusal.map { String(cString: $0) })
        #expect(refusal.hasPrefix("built for plugin ABI \(TRELLIS_PLUGIN_ABI_VERSION), but the host offers ABI 0"))
        #expect(host.services.isEmpty)
    }

    @Test("refuses when given no host table")
    func refusesNoTable() throws {
        let info = try #require(TrellisPlugin.entry(nil, services: [JournalService.self]))
        #expect(info.pointee.refusal.map { String(cString: $0) } == "the host passed no function table")
    }

    @Test("registers each service by name; start makes a fresh instance, stop drops it and its watches")
    func startAndStop() throws {
        _ = JournalService.journal.take()
        let host = FakeHost()
        var table = host.table()
        let info = try #require(TrellisPlugin.entry(&table, services: [JournalService.self]))
        #expect(info.pointee.refusal == nil)
        let service = try #require(host.services.first)
        #expect(host.services.map(\.name) == ["journal"])

        var error = [CChar](repeating: 0, count: 64)
        #expect(service.start(service.data, #"{"n":1}"#, &error, error.count) == TRELLIS_OK)
        #expect(service.start(service.data, #"{"n":2}"#, &error, error.count) == TRELLIS_OK)
        #expect(host.watchedPatterns == ["journal:*"])
        #expect(host.triggers == [#"journal:started {"n":1}"#])
        service.stop(service.data, "null")
        #expect(host.watchedPatterns.isEmpty)
        #expect(JournalService.journal.take() == ["init", #"start {"n":1}"#, "stop null"])
        service.release?(service.data)
    }

    @Test("a failing start writes its message into the host's buffer, cut at a character boundary")
    func startFailure() throws {
        _ = JournalService.journal.take()
        let host = FakeHost()
        var table = host.table()
        _ = TrellisPlugin.entry(&table, services: [JournalService.self])
        let service = try #require(host.services.first)

        var error = [CChar](repeating: 0x7f, count: 8)  // room for 7 bytes: "нет " fits, the next "с" (2 bytes) does not
        #expect(service.start(service.data, #"{"fail":"нет сети"}"#, &error, error.count) != TRELLIS_OK)
        let bytes = error.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }
        #expect(String(validating: bytes, as: UTF8.self) == "нет ")
        #expect(host.watchedPatterns.isEmpty)
        service.release?(service.data)
    }
}
