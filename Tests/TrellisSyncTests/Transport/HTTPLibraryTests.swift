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
