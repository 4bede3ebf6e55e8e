import Foundation
import Testing
import TrellisCore
import TrellisDemo
import TrellisHeadless
import TrellisPlugins
import TrellisStore
@testable import TrellisSync
import TrellisTesting

extension AgainstRealServers {
    /// The demo with a server, as a person sees it: the notes list and an open editor follow
    /// pulls and edits, the status line keeps the sync's state, and the Trash and the conflicts
    /// can be opened.
    @MainActor
    @Suite("Demo notes with a server: live pages, status, Trash, conflicts")
    struct DemoSyncPagesTests {
        /// The demo's shell on a fresh store, syncing (only when asked) with `server`.
        @MainActor
        private struct Demo {
            let shell = Shell()
            let screen: HeadlessFrontend
            let sync: EntitySync

            init(server: URL, settings: JSONValue? = nil) async throws {
                let data = SyncFixtures.repositoryRoot.appendingPathComponent("data")
                let store = try DemoStore.open(at: try SyncFixtures.storeURL(), dataDirectory: data, bus: shell.bus)
                try DemoApp.install(on: shell, catalog: ["Фэнтези"], store: store)
                // The build's plugins, the location's status item among them; its own updates
                // are stopped, so that the tests set the line themselves. Their settings and data
                // are the test's own.
                let environment = try TestFolder.environment("demo")
                await DemoServices.start(on: shell, pluginDirectories: [], dataDirectory: data,
                                         settings: PluginSettings(url: PluginSettings.defaultURL(environment: environment)),
                                         environment: environment)
                try await shell.services.stop("location")
                screen = HeadlessFrontend(shell: shell)
                let settingsFile = try TestFolder.make("settings").appendingPathComponent("settings.json")
                if let settings { try Data(JSONValue.object(["sync": settings]).jsonData()).write(to: settingsFile) }
                sync = try #require(try DemoSync.start(on: shell, store: store, server: server, settingsFile: settingsFile,
                                                      background: false))
            }

            /// Writes a note through the editor, as a person does.
            func write(_ title: String, body: String) async throws {
                if shell.navigator.top?.values.path != "/notes" { try shell.navigate(to: "/notes") }
                try shell.navigate(to: "/notes/new")
                try screen.fill("title", with: title)
                try screen.fill("body", with: body)
                try screen.press("save")
                #expect(await eventually { shell.navigator.top?.values.path == "/notes" })
            }
        }

        @Test("the open notes list shows a pulled change and a second edit of the same note, as announced to the view")
        func liveList() async throws {
            try await SyncFixtures.withServer { server in
                let demo = try await Demo(server: server.baseURL)
                try demo.shell.navigate(to: "/notes")
                try await demo.write("Plan", body: "v1")
                try await demo.sync.syncNow()
                try await demo.sync.syncNow()  // a later pull sees the create kept
                server.edit("1", ["body": "from the server"])
                try await demo.sync.syncNow()
                #expect(await eventually { demo.screen.table?.lines == ["Plan | from the server"] })
                for body in ["edited here", "edited again"] {
                    try demo.screen.click(row: 0)
                    try demo.screen.fill("body", with: body)
                    try demo.screen.press("save")
                    #expect(await eventually { demo.screen.table?.lines == ["Plan | \(body)"] })
                }
                #expect(demo.screen.table?.inconsistencies == [])
            }
        }

        @Test("an open editor takes a pulled change into untouched fields and keeps what is being typed")
        func liveEditor() async throws {
            try await SyncFixtures.withServer { server in
                let demo = try await Demo(server: server.baseURL)
                try demo.shell.navigate(to: "/notes")
                try await demo.write("Plan", body: "v1")
                try await demo.sync.syncNow()
                try demo.screen.click(row: 0)
                try demo.screen.fill("body", with: "typing, not saved")
                server.edit("1", ["title": "Plan B", "body": "theirs"])
                try await demo.sync.syncNow()
                #expect(await eventually { demo.screen.form?["title"] == "Plan B" })
                #expect(demo.screen.form?["body"] == "typing, not saved")
                #expect(demo.screen.page?.title == "Plan B")
                #expect(demo.screen.page?.message?.contains("your typing is kept") == true)
                #expect(try demo.sync.pendingCount() == 0, "the pulled change is not queued back")
            }
        }

        @Test("the status line keeps the sync's state when location news arrives, and counts conflicts")
        func statusLine() async throws {
            try await SyncFixtures.withServer { server in
                let demo = try await Demo(server: server.baseURL)
                try await demo.write("Plan", body: "v1")
                try await demo.sync.syncNow()
                await server.stop()
                try await demo.write("Offline", body: "kept")
                try await demo.sync.syncNow()
                // As the Location plugin sets its status item (its own timer is too slow here).
                demo.shell.bus.trigger("location:status", ["item": "position", "text": "59.93750, 30.30860"])
                #expect(await eventually {
                    demo.screen.status == "Sync: offline, 1 change waiting  ·  Location: 59.93750, 30.30860"
                }, "\(demo.screen.status ?? "no status")")
                try await server.restart()
                try await demo.sync.syncNow()
                let plan = try #require(server.notes.first { $0.attributes["title"] == "Plan" })
                server.edit(plan.id, ["body": "theirs"])
                try demo.shell.navigate(to: "/notes")
                try demo.screen.click(text: "Plan | v1")
                try demo.screen.fill("body", with: "mine")
                try demo.screen.press("save")
                #expect(try await eventually { try demo.sync.pendingCount() == 1 })
                try await demo.sync.syncNow()
                #expect(await eventually {
                    demo.screen.status?.hasPrefix("Sync: up to date; 1 conflict to review  ·  Location:") == true
                })
            }
        }

        @Test("a conflict opens with both versions; a note deleted on the server is restored from the Trash page")
        func conflictsAndTrash() async throws {
            try await SyncFixtures.withServer { server in
                let demo = try await Demo(server: server.baseURL)
                try await demo.write("Plan", body: "v1")
                try await demo.write("Old", body: "still wanted")
                try await demo.sync.syncNow()
                try await demo.sync.syncNow()
                let plan = try #require(server.notes.first { $0.attributes["title"] == "Plan" })
                let old = try #require(server.notes.first { $0.attributes["title"] == "Old" })
                server.edit(plan.id, ["body": "theirs"])
                server.remove(old.id)
                try demo.shell.navigate(to: "/notes")
                try demo.screen.click(text: "Plan | v1")
                try demo.screen.fill("body", with: "mine")
                try demo.screen.press("save")
                #expect(try await eventually { try demo.sync.pendingCount() == 1 })
                let report = try await demo.sync.syncNow()
                #expect(report.conflicts.count == 1)
                #expect(report.trashed == 1)

                try demo.screen.pressPageAction("conflicts")
                try demo.screen.click(row: 0)
                #expect(demo.screen.form?["server"] == "Plan\ntheirs")
                #expect(demo.screen.form?["copy"] == "Plan (conflict copy)\nmine")
                try demo.screen.press("copy")
                #expect(demo.screen.form?["body"] == "mine")
                demo.screen.back()
                try demo.screen.press("dismiss")
                #expect(await eventually { demo.screen.table?.lines == [] })
                demo.screen.back()

                try demo.screen.pressPageAction("trash")
                #expect(demo.screen.table?.lines.first?.hasPrefix("Old | deleted on the server") == true)
                try demo.screen.click(row: 0)
                #expect(demo.screen.form?["body"] == "still wanted")
                try demo.screen.press("restore")
                #expect(await eventually { demo.screen.table?.lines == [] })
                try await demo.sync.syncNow()
                #expect(server.notes.map { $0.attributes["title"]?.stringValue ?? "" }.sorted()
                    == ["Old", "Plan", "Plan (conflict copy)"])
            }
        }
    
        @Test("a failing pass says why in the status line and on /sync, where Sync now retries")
        func failureShownWithRetry() async throws {
            try await SyncFixtures.withServer { server in
                let demo = try await Demo(server: server.baseURL, settings: ["retries": 0])
                try await demo.write("Plan", body: "v1")
                server.failNext(1, status: 500)
                let failed = try await demo.sync.syncNow()
                #expect(failed.failure?.status == 500)
                #expect(await eventually {
                    demo.screen.status?.hasPrefix("Sync failed: the server answered HTTP 500; 1 change waiting") == true
                }, "\(demo.screen.status ?? "no status")")
                try demo.shell.navigate(to: "/notes")
                try demo.screen.pressPageAction("sync")
                #expect(demo.screen.form?["reason"]?.contains("the server answered HTTP 500") == true)
                #expect(demo.screen.form?["waiting"]?.hasPrefix("create \"Plan\" (1 attempt): ") == true,
                        "\(demo.screen.form?["waiting"] ?? "")")
                try demo.screen.press("retry")
                #expect(await eventually { demo.screen.form?["state"] == "Sync: up to date" })
                #expect(demo.screen.form?["waiting"] == "Nothing: every change is on the server.")
                #expect(demo.screen.status?.hasPrefix("Sync: up to date") == true)
                #expect(server.notes.map { $0.attributes["title"] } == ["Plan"])
            }
        }

        @Test("a server's HTML error page (Django's 404) reads on /sync as its status, reason and text, not as HTML source")
        func htmlErrorPageReadable() async throws {
            try await DRFServer.with { server in
                let demo = try await Demo(server: server.baseURL.appendingPathComponent("elsewhere"), settings: ["retries": 0])
                let failed = try await demo.sync.syncNow()
                #expect(failed.failure?.status == 404)
                #expect(await eventually {
                    demo.screen.status?.hasPrefix("Sync failed: the server answered HTTP 404; 0 changes waiting") == true
                }, "\(demo.screen.status ?? "no status")")
                try demo.shell.navigate(to: "/sync")
                let reason = demo.screen.form?["reason"] ?? ""
                #expect(reason == "GET \(server.baseURL.absoluteString)/elsewhere/notes: the server answered HTTP 404: "
                    + "Not Found: Not Found The requested resource was not found on this server.", "\(reason)")
            }
        }
    }
}
