import Foundation
import Testing
import TrellisCore
@testable import TrellisSync
import TrellisTesting

@Suite("Sync settings: HTTPS rule, settings file, backoff")
struct SyncSettingsTests {
    @Test("loopback hosts may use plain HTTP", arguments: [
        "http://127.0.0.1:8080/api", "http://127.9.8.7/", "http://localhost:1/", "http://LOCALHOST/",
        "http://[::1]:8080/", "http://notes.localhost/",
    ])
    func loopbackAllowed(url: String) throws {
        try SyncSettings().check(try #require(URL(string: url)), for: .get)
    }

    @Test("any other host needs HTTPS", arguments: [
        "http://example.com/api", "http://128.0.0.1/", "http://127.0.0.1.example.com/", "http://10.0.0.2/",
        "http://[::2]/",
    ])
    func plainHTTPRefused(url: String) throws {
        let url = try #require(URL(string: url))
        let error = #expect(throws: SyncError.self) { try SyncSettings().check(url, for: .put) }
        guard case .refusedURL(.put, url, let reason)? = error else {
            Issue.record("expected a refused URL, got \(String(describing: error))")
            return
        }
        #expect(reason.contains("https"))
        try SyncSettings().check(try #require(URL(string: url.absoluteString.replacingOccurrences(of: "http:", with: "https:"))),
                                 for: .put)
    }

    @Test("a host listed in allowInsecureHosts may use plain HTTP")
    func explicitlyAllowed() throws {
        let settings = SyncSettings(allowInsecureHosts: ["notes.lan"])
        try settings.check(try #require(URL(string: "http://notes.lan:8080/api")), for: .get)
        #expect(throws: SyncError.self) { try settings.check(URL(string: "http://other.lan/")!, for: .get) }
    }

    @Test("schemes other than http and https are refused")
    func otherSchemes() {
        #expect(throws: SyncError.self) { try SyncSettings().check(URL(string: "ftp://127.0.0.1/notes")!, for: .get) }
    }

    @Test("a refused URL sends nothing and announces no network activity")
    func refusedSendsNothing() async {
        let bus = EventBus()
        let events = EventRecorder(bus: bus)
        let url = URL(string: "http://example.com/notes")!
        await #expect(throws: SyncError.self) { try await BasicSync(bus: bus).send(SyncRequest(.get, url)) }
        #expect(events.all.isEmpty)
    }

    @Test("settings read from JSON, with defaults for absent keys")
    func readsJSON() throws {
        let json = try JSONValue(jsonString: """
            {"server": "https://notes.example/api", "token": "s3cret", "timeout": 4, "retries": 0,
             "allowInsecureHosts": ["Notes.LAN"]}
            """)
        let settings = try SyncSettings(json: json, source: "settings.json: sync")
        #expect(settings.server == URL(string: "https://notes.example/api"))
        #expect(settings.bearerToken == "s3cret")
        #expect(settings.timeout == 4)
        #expect(settings.retries == 0)
        #expect(settings.backoff == SyncSettings().backoff)
        #expect(settings.allowInsecureHosts == ["notes.lan"])
    }

    @Test("a bad setting is named in the error; a bad token is not echoed")
    func badSettings() throws {
        #expect(throws: SyncSettingsError.invalidValue(source: "s.json", key: "timeout",
                                                       expected: "a number of at least 0.001", found: "soon")) {
            try SyncSettings(json: ["timeout": "soon"], source: "s.json")
        }
        let error = #expect(throws: SyncSettingsError.self) {
            try SyncSettings(json: ["token": "line one\nline two"], source: "s.json")
        }
        #expect(error?.description.contains("'token'") == true)
        #expect(error?.description.contains("line one") == false)
    }

    @Test("retries wait exponentially longer, up to the maximum")
    func backoff() {
        let settings = SyncSettings(backoff: 0.5, maximumBackoff: 3)
        #expect((1...5).map(settings.delay(beforeRetry:)) == [0.5, 1, 2, 3, 3])
    }

    @Test("idempotent methods are GET, PUT and DELETE")
    func idempotence() {
        #expect(SyncRequest.Method.allCases.filter(\.isIdempotent) == [.get, .put, .delete])
    }

    @Test("an ETag gives the version without quotes or weakness marker")
    func etag() {
        #expect(["\"3\"", "W/\"3\"", "3", " \"3\" "].map(SyncResponse.version(fromETag:)) == ["3", "3", "3", "3"])
        #expect(SyncResponse.version(fromETag: "\"\"") == nil)
    }
}
