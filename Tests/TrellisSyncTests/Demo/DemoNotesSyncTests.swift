import Foundation
import Testing
import TrellisCore
import TrellisDemo
import TrellisHeadless
import TrellisStore
import TrellisSync
import TrellisTesting

/// The demo's notes page with `--server`: a note saved in the window reaches the server, and a
/// note on the server shows in the list.
@MainActor
@Suite("Demo notes sync")
struct DemoNotesSyncTests {
    @Test("notes sync both ways with the configured server; the status line says so")
    func notesSync() async throws {
        try await SyncFixtures.withServer { server in
            _ = server.seed(["title": "С сервера", "body": "привет", "created": "2026-01-01T00:00:00.000Z",
                             "updated": "2026-01-01T00:00:00.000Z"])
            let shell = Shell()
            let data = SyncFixtures.repositoryRoot.appendingPathComponent("data")
            let store = try DemoStore.open(at: try SyncFixtures.storeURL(), dataDirectory: data, bus: shell.bus)
            try DemoApp.install(on: shell, catalog: ["Фэнтези"], store: store)
            let screen = HeadlessFrontend(shell: shell)
            let noSettings = FileManager.default.temporaryDirectory.appendingPathComponent("trellis-none-\(UUID().uuidString).json")
            let sync = try #require(try DemoSync.start(on: shell, store: store, server: server.baseURL, settingsFile: noSettings))
            defer { sync.stop() }
            try shell.navigate(to: "/notes")
            #expect(await eventually { screen.table?.render() == ["С сервера | привет"] })
            #expect(await eventually { screen.status == "Sync: up to date" })
            try shell.navigate(to: "/notes/new")
            try screen.fill("title", with: "Из окна")
            try screen.press("save")
            #expect(await eventually { server.notes.contains { $0.attributes["title"] == "Из окна" } })
        }
    }

    @Test("a plain-HTTP server that is not loopback is refused with a clear error")
    func insecureServerRefused() throws {
        let shell = Shell()
        let data = SyncFixtures.repositoryRoot.appendingPathComponent("data")
        let store = try DemoStore.open(at: try SyncFixtures.storeURL(), dataDirectory: data, bus: shell.bus)
        #expect {
            try DemoSync.start(on: shell, store: store, server: URL(string: "http://notes.example/api")!)
        } throws: { error in
            String(describing: error).contains("plain HTTP to 'notes.example' is not allowed")
        }
    }
}

@MainActor
@Suite("Demo sync settings")
struct DemoSyncSettingsTests {
    @Test("the settings file's sync key configures the server and token; a bad value names the key")
    func settingsFile() throws {
        let folder = try TestFolder.make("settings")
        let file = folder.appendingPathComponent("settings.json")
        try Data(#"{"sync": {"server": "https://notes.example/api", "token": "t0k"}}"#.utf8).write(to: file)
        let shell = Shell()
        let data = SyncFixtures.repositoryRoot.appendingPathComponent("data")
        let store = try DemoStore.open(at: try SyncFixtures.storeURL(), dataDirectory: data, bus: shell.bus)
        let sync = try #require(try DemoSync.start(on: shell, store: store, server: nil, settingsFile: file))
        sync.stop()
        try Data(#"{"sync": {"server": "https://notes.example/api", "timeout": "soon"}}"#.utf8).write(to: file)
        #expect {
            try DemoSync.start(on: Shell(), store: store, server: nil, settingsFile: file)
        } throws: { error in
            String(describing: error).contains("timeout")
        }
    }
}
