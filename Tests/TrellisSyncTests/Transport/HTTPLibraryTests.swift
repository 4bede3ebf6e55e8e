import Foundation
import Testing
import TrellisCore
@testable import TrellisSync
import TrellisTesting

/// libTrellisHTTP.so, the transport TrellisSync opens on its first request: where it is looked
/// for, and what happens when it is missing or is not what it should be.
@Suite("HTTPLibrary: the transport library opened on the first request")
struct HTTPLibraryTests {
    @Test("looked for in $TRELLIS_HTTP_LIBRARY, beside the executable, then in <prefix>/lib/trellis")
    func candidates() {
        let paths = HTTPLibrary.candidates(environment: ["TRELLIS_HTTP_LIBRARY": "/opt/x/libTrellisHTTP.so"],
                                           executable: URL(fileURLWithPath: "/usr/local/bin/trellis"))
        #expect(paths == ["/opt/x/libTrellisHTTP.so", "/usr/local/bin/libTrellisHTTP.so",
                          "/usr/local/lib/trellis/libTrellisHTTP.so"])
        #expect(HTTPLibrary.candidates(environment: [:], executable: URL(fileURLWithPath: "/usr/bin/trellis")).count == 2)
    }

    @Test("the build's own library is found and loads")
    func buildsLibraryLoads() throws {
        let library = HTTPLibrary.load(from: HTTPLibrary.candidates())
        #expect((try? library.get()) != nil, "\(library)")
    }

    @Test("missing: an error naming the file and every place looked in")
    func missing() {
        let result = HTTPLibrary.load(from: ["/nonexistent/a/libTrellisHTTP.so", "/nonexistent/b/libTrellisHTTP.so"])
        guard case .failure(let error) = result else { Issue.record("loaded from nowhere"); return }
        #expect(error.description.contains("libTrellisHTTP.so is not installed"))
        #expect(error.description.contains("/nonexistent/a/libTrellisHTTP.so, /nonexistent/b/libTrellisHTTP.so"))
        #expect(error.description.contains("TRELLIS_HTTP_LIBRARY"))
    }

    @Test("a file that is not a library, or another library, is refused with its path")
    func wrongFile() throws {
        let text = FileManager.default.temporaryDirectory.appendingPathComponent("trellis-http-\(UUID().uuidString).so")
        try Data("not a library".utf8).write(to: text)
        defer { try? FileManager.default.removeItem(at: text) }
        guard case .failure(let garbage) = HTTPLibrary.load(from: [text.path]) else {
            Issue.record("a text file loaded"); return
        }
        #expect(garbage.description.hasPrefix("\(text.path) cannot be loaded: "), "\(garbage)")

        // A real shared library without the transport's functions: a plugin of this build.
        let plugin = try #require(HTTPLibrary.candidates().first.map {
            URL(fileURLWithPath: $0).deletingLastPathComponent().appendingPathComponent("libTrellisPluginTemplate.so").path
        })
        guard case .failure(let other) = HTTPLibrary.load(from: [plugin]) else {
            Issue.record("a plugin passed for the HTTP library"); return
        }
        #expect(other.description == "\(plugin) is not Trellis's HTTP library (its functions are missing)")
    }

    /// A library exporting trellis_http_entry, built from trellis_http.h like the real one, whose
    /// table is broken as `definitions` say (VERSION, SIZE, NO_CANCEL).
    private func fakeLibrary(_ definitions: [String], in folder: URL) throws -> String {
        let source = folder.appendingPathComponent("fake.c")
        try Data("""
            #include "trellis_http.h"
            #ifndef VERSION
            #define VERSION TRELLIS_HTTP_ABI_VERSION
            #endif
            #ifndef SIZE
            #define SIZE sizeof(trellis_http_api)
            #endif
            static void *start(const char *m, const char *u, const char *h, const uint8_t *b, intptr_t l, double t,
                               void *c, trellis_http_done d) { return 0; }
            static void handle(void *request) {}
            #ifdef NO_CANCEL
            static const trellis_http_api table = {VERSION, SIZE, start, 0, handle};
            #else
            static const trellis_http_api table = {VERSION, SIZE, start, handle, handle};
            #endif
            const trellis_http_api *trellis_http_entry(void) { return &table; }
            """.utf8).write(to: source)
        let library = folder.appendingPathComponent("libfake-\(definitions.joined()).so").path
        let include = SyncFixtures.repositoryRoot.appendingPathComponent("Sources/TrellisHTTPABI/include").path
        let compiler = Process()
        compiler.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        compiler.arguments = ["cc", "-shared", "-fPIC", "-I", include] + definitions.map { "-D\($0)" } + ["-o", library, source.path]
        try compiler.runOneAtATime()
        compiler.waitUntilExit()
        #expect(compiler.terminationStatus == 0, "cc failed")
        return library
    }

    @Test("a library of another ABI version, or with a broken table, is refused naming what is wrong")
    func brokenTable() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("trellis-http-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }

        let good = try fakeLibrary([], in: folder)
        #expect((try? HTTPLibrary.load(from: [good]).get()) != nil, "the header's own table loads")
        let newer = try fakeLibrary(["VERSION=99"], in: folder)
        guard case .failure(let version) = HTTPLibrary.load(from: [newer]) else { Issue.record("version 99 loaded"); return }
        #expect(version.description == "\(newer) has ABI version 99, this build needs \(HTTPLibrary.abiVersion)")
        for broken in [["SIZE=8"], ["NO_CANCEL"]] {
            let library = try fakeLibrary(broken, in: folder)
            guard case .failure(let error) = HTTPLibrary.load(from: [library]) else { Issue.record("\(broken) loaded"); continue }
            #expect(error.description.hasPrefix("\(library) has a broken function table"), "\(error)")
        }
    }

    @Test("without the library a request fails as a transport error naming it; edits stay queued as when offline")
    func sendWithoutLibrary() async throws {
        let bus = EventBus()
        let events = EventRecorder(bus: bus, pattern: "network:*")
        let sync = BasicSync(settings: SyncFixtures.settings(), bus: bus,
                             transport: { HTTPLibrary.load(from: ["/nonexistent/libTrellisHTTP.so"]) })
        let url = URL(string: "http://127.0.0.1:9/notes")!
        do {
            _ = try await sync.send(SyncRequest(.get, url))
            Issue.record("a request was answered without a transport")
        } catch {
            guard case .transport(.get, url, let reason) = error else { Issue.record("\(error)"); return }
            #expect(reason.contains("libTrellisHTTP.so is not installed"))
            #expect(error.isOffline, "a sync keeps its queue, to push once the library is there")
        }
        #expect(events.count("network:on") == SyncFixtures.settings().retries + 1, "every attempt is announced")
        #expect(events.count("network:on") == events.count("network:off"))
    }
}
