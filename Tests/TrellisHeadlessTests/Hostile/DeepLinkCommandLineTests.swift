import Foundation
import Testing
import TrellisCore
import TrellisDemo
import TrellisStore

/// Hostile deep links through the real command line, `trellis --headless PATH`, each in its
/// own process with its own `XDG_DATA_HOME` and `XDG_CONFIG_HOME` and a store holding notes
/// and people: the process exits with status 1 and one line on standard error naming the
/// problem (no crash, no stack trace, nothing on standard output), and the store holds
/// exactly what it held before.
@Suite("Hostile deep links on the command line")
struct DeepLinkCommandLineTests {
    /// A deep link and the words its error must contain.
    struct DeepLink: Sendable, CustomTestStringConvertible {
        let name: String
        let bytes: [UInt8]
        let problem: String

        init(_ name: String, _ text: String, _ problem: String) {
            self.init(name, Array(text.utf8), problem)
        }

        init(_ name: String, _ bytes: [UInt8], _ problem: String) {
            self.name = name
            self.bytes = bytes
            self.problem = problem
        }

        var testDescription: String { name }
    }

    static let hostileLinks: [DeepLink] = [
        DeepLink("a .. segment", "/notes/..", #"segment "..": "." and ".." segments are not allowed"#),
        DeepLink("a percent-encoded .. segment", "/notes/%2e%2e/people", #"segment "%2e%2e": "." and ".." segments are not allowed"#),
        DeepLink("a percent-encoded NUL", "/notes/a%00b", #""%00" encodes a NUL byte"#),
        DeepLink("a 100 KB path", "/" + String(repeating: "a", count: 100 * 1024), "102401 bytes is longer than the limit of 4096"),
        DeepLink("a newline", "/catalog\n/5", "control character U+000A at byte offset 8"),
        DeepLink("a terminal escape sequence", "/catalog/\u{1B}[2J", "control character U+001B at byte offset 9"),
        DeepLink("raw bytes that are not UTF-8", Array("/catalog/".utf8) + [0xFF, 0xFE], "argument 2 is not valid UTF-8 (byte 0xFF at offset 9)"),
        DeepLink("an overlong UTF-8 slash", [0x2F, 0x2E, 0x2E, 0xC0, 0xAF, 0x65, 0x74, 0x63], "argument 2 is not valid UTF-8 (byte 0xC0 at offset 3)"),
        DeepLink("percent-encoded bytes that are not UTF-8", "/catalog/%FF", "percent-encoding does not decode to UTF-8"),
        DeepLink("repeated slashes", "//etc/passwd", "empty segment at byte offset 1"),
        DeepLink("a relative path", "catalog", #"it must start with "/""#),
        DeepLink("a route that is not public", "/events", "/events, which is not a public route and cannot be opened from outside"),
        DeepLink("an unknown route", "/nowhere", #"no route matches "/nowhere""#),
    ]

    @Test("a hostile deep link exits 1 with one line naming the problem, and the store is unchanged", arguments: hostileLinks)
    func hostileLink(_ link: DeepLink) async throws {
        let app = try AppSandbox()
        let before = try app.snapshot()
        #expect(before.lines.count == 6, "five people and a note")

        let result = try await RawProcess.run(try AppSandbox.trellis(), arguments: [Array("--headless".utf8), link.bytes],
                                        environment: app.environment)

        #expect(result.termination == .exit(1))
        #expect(result.standardOutput.isEmpty)
        let lines = result.standardError.split(separator: "\n")
        #expect(lines.count == 1, "one line, no stack trace: \(result.standardError)")
        #expect(lines.first?.hasPrefix("Error: ") == true)
        #expect(lines.first?.contains(link.problem) == true, "\(lines.first ?? "")")
        let after = try app.snapshot()
        #expect(after == before)
        #expect(after.integrity == ["ok"])
    }

    @Test("the same command opens a public deep link, and the store is unchanged")
    func goodLink() async throws {
        let app = try AppSandbox()
        let before = try app.snapshot()

        let result = try await RawProcess.run(try AppSandbox.trellis(), arguments: [Array("--headless".utf8), Array("/catalog/5".utf8)],
                                        environment: app.environment)

        #expect(result.termination == .exit(0))
        #expect(result.standardOutput.contains("Genre: Фэнтези"))
        #expect(try app.snapshot() == before)
    }
}

/// Private XDG folders for one `trellis` process, with a store already holding the demo's
/// sample people (so the app has nothing to add on its first run) and a note.
final class AppSandbox: Sendable {
    static let dataDirectory = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .appendingPathComponent("../../../data").standardizedFileURL

    let root = FileManager.default.temporaryDirectory.appendingPathComponent("trellis-hostile-\(UUID().uuidString)")

    /// The built `trellis` next to the test bundle (or `$TRELLIS_BIN`).
    static func trellis() throws -> URL {
        let url = ProcessInfo.processInfo.environment["TRELLIS_BIN"].map { URL(fileURLWithPath: $0) }
            ?? URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent().appendingPathComponent("trellis")
        try #require(FileManager.default.isExecutableFile(atPath: url.path), "build the trellis executable first: \(url.path)")
        return url
    }

    init() throws {
        let model = try ManagedObjectModel(contentsOf: Self.dataDirectory.appendingPathComponent("model.json"))
        let store = try PersistentStore(url: storeURL, model: model)
        let context = store.newContext()
        for person in Person.samples { try context.insert(person) }
        let note = try context.insert("Note")
        note["title"] = "x'); DROP TABLE Note; --"
        note["body"] = "keep me"
        note["created"] = .date(Date(timeIntervalSince1970: 0))
        note["updated"] = .date(Date(timeIntervalSince1970: 0))
        try context.save()
        try store.close()
    }

    deinit {
        try? FileManager.default.removeItem(at: root)
    }

    /// Private data, settings and cache folders (the cache holds the plugins' temporary
    /// folders, which each start empties); logging only critical messages, so that what the app
    /// logs about other things (plugins a sanitizer build cannot load) is not taken for the
    /// error's lines.
    var environment: [String: String] {
        ["XDG_DATA_HOME": root.appendingPathComponent("data").path, "XDG_CONFIG_HOME": root.appendingPathComponent("config").path,
         "XDG_CACHE_HOME": root.appendingPathComponent("cache").path, "TRELLIS_LOG_LEVEL": "critical"]
    }

    /// The store the process opens: `$XDG_DATA_HOME/trellis/trellis.sqlite`.
    var storeURL: URL { PersistentStore.defaultURL(environment: environment) }

    func snapshot() throws -> StoreSnapshot {
        try StoreSnapshot(of: storeURL, dataDirectory: Self.dataDirectory)
    }
}
