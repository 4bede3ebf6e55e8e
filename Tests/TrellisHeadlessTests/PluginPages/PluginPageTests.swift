import Foundation
import Testing
import TrellisCore
import TrellisPlugins
import TrellisHeadless
import TrellisTesting

/// Pages a plugin contributes, served over the bus by a C plugin built at test time and run in
/// a process of its own, shown by the headless front end as the app's own pages are. The tests
/// of deadlines run the host on a test clock, which they advance.
@MainActor
@Suite("Plugin pages", .serialized)
struct PluginPageTests {
    @MainActor final class App {
        let shell = Shell()
        let screen: HeadlessFrontend
        let host: PluginHost
        let pages: PluginPageRoutes
        let root: URL

        /// `secondCopy`: install the plugin a second time under this id (same routes).
        /// `deadline`: how long a page waits for the plugin; `eventDeadline`: how long the
        /// plugin's process may take over one event (by default stretched by testPatience, as
        /// are the start and stop deadlines; the tests of a hang pass their own).
        init(clock: PluginClock = .continuous, deadline: Duration = .seconds(3 * testPatience), eventDeadline: Duration = .seconds(3 * testPatience),
             appRoutes: [String] = [], secondCopy: String? = nil, secondCopyGranted: Bool = true, activation: String? = nil) throws {
            root = FileManager.default.temporaryDirectory.appendingPathComponent("trellis-pages-\(UUID().uuidString)")
            try PagesPlugin.install(in: root, activation: activation)
            if let secondCopy { try PagesPlugin.install(in: root, as: secondCopy, grantingRoutes: secondCopyGranted) }
            for pattern in appRoutes { try shell.route(pattern, to: PageController.self) }
            host = PluginHost(bus: shell.bus, services: shell.services,
                              searchPaths: [PluginSearchPath(directory: root, origin: .commandLine)],
                              settings: PluginSettings(url: root.appendingPathComponent("settings.json")),
                              routes: shell.routes,
                              deadlines: PluginDeadlines(start: .seconds(5 * testPatience), stop: .seconds(2 * testPatience), event: eventDeadline),
                              clock: clock, environment: try TestFolder.environment("plugin-host"),
                              navigate: { _ in }, handleRequest: { _, _ in })
            screen = HeadlessFrontend(shell: shell)
            pages = PluginPageRoutes(shell: shell, host: host, deadline: deadline)
        }

        /// The app with its plugin loaded and its pages' routes registered.
        static func started(clock: PluginClock = .continuous, deadline: Duration = .seconds(3 * testPatience),
                            eventDeadline: Duration = .seconds(3 * testPatience),
                            appRoutes: [String] = [], secondCopy: String? = nil, secondCopyGranted: Bool = true,
                            activation: String? = nil) async throws -> App {
            let app = try App(clock: clock, deadline: deadline, eventDeadline: eventDeadline,
                              appRoutes: appRoutes, secondCopy: secondCopy, secondCopyGranted: secondCopyGranted, activation: activation)
            await app.host.loadAll()
            app.pages.registerRoutes()
            return app
        }

        deinit { try? FileManager.default.removeItem(at: root) }

        func waitFor(_ text: String) async -> Bool {
            await eventually { self.screen.render().contains(text) }
        }
    }

    @Test("a text page: the plugin's text under the manifest's title")
    func text() async throws {
        let app = try await App.started()
        try app.shell.navigate(to: "/pages/hello")
        #expect(await app.waitFor("Hello from a plugin page"), "\(app.screen.render())")
        #expect(app.screen.render().hasPrefix("Hello  (Mark)\n"), "the manifest's title, and the plugin's command placed on the page")
    }

    @Test("a table page: rows fetched by range as the front end reads them; the plugin's inserts reach the table")
    func table() async throws {
        let app = try await App.started()
        let fetches = EventRecorder(bus: app.shell.bus, pattern: "pages:page:fetch")
        try app.shell.navigate(to: "/pages/rows")
        #expect(await app.waitFor("Row 0 | 0"), "\(app.screen.render())")
        let table = try #require(app.screen.table)
        #expect(table.container.flatCount == 1000)
        #expect(app.screen.render().contains("Rows from C"))
        // Rows are asked for in blocks of 100, each once, as they are read.
        #expect(await eventually { columns(table.container, 950) == ["Row 950", "1900"] })
        let asked = fetches.all.map { "\($0.data["start"]?.intValue ?? -1)+\($0.data["count"]?.intValue ?? -1)" }
        #expect(Set(asked).count == asked.count && asked.allSatisfy { $0.hasSuffix("+100") } && asked.contains("900+100"), "\(asked)")

        var changes: [[FlatChange]] = []
        let token = table.container.onFlatChanges { changes.append($0) }
        try app.screen.click(row: 5)
        #expect(await eventually { table.container.flatCount == 1002 })
        #expect(changes.first == [FlatChange(position: 0, removed: 0, added: 2)], "one items-changed for the two rows: \(changes)")
        #expect(await eventually { columns(table.container, 0) == ["Row -2", "-4"] })
        #expect(columns(table.container, 952) == ["Row 950", "1900"], "rows keep their columns when others are inserted")
        withExtendedLifetime(token) {}
    }

    private func columns(_ container: TableContainer, _ index: Int) -> [String]? {
        guard case .item(_, let cell)? = container.flatRow(at: index) else { return nil }
        return cell.columns
    }

    @Test("a form page: the plugin answers its button with a message and new values")
    func form() async throws {
        let app = try await App.started()
        try app.shell.navigate(to: "/pages/form")
        #expect(await app.waitFor("Name: ["), "\(app.screen.render())")
        try app.screen.press("sign")
        #expect(await app.waitFor("! A name is needed"), "\(app.screen.render())")
        try app.screen.fill("name", with: "Ada")
        try app.screen.press("sign")
        #expect(await app.waitFor("! Signed"), "\(app.screen.render())")
        #expect(app.screen.form?["name"] == "")
    }

    @Test("a plugin answering with the wrong number of rows: the page says so, naming the plugin, and offers Restart")
    func wrongRows() async throws {
        let app = try await App.started()
        try app.shell.navigate(to: "/pages/bad")
        #expect(await app.waitFor("sent 3 rows from row 0, not 10"), "\(app.screen.render())")
        let screen = app.screen.render()
        #expect(screen.contains("The plugin “Pages” sent what this page cannot show"), "\(screen)")
        #expect(screen.contains("(Restart Plugin)"), "\(screen)")
    }

    @Test("a plugin that never answers: its process is stopped after the deadline, the page says why, and the window goes on")
    func hang() async throws {
        // The page's deadline well before the process's own event deadline, so that the page's
        // is the one that stops the plugin.
        let clock = ManualClock()
        let app = try await App.started(clock: PluginClock(clock), deadline: .seconds(1), eventDeadline: .seconds(30))
        let crashes = EventRecorder(bus: app.shell.bus, pattern: "plugin:crashed")
        try app.shell.navigate(to: "/pages/hang")
        clock.advance(by: .seconds(2))
        #expect(await app.waitFor("did not answer in time"), "\(app.screen.render())")
        #expect(await eventually { !crashes.all.isEmpty })
        #expect(crashes.all.first?.data["reason"]?.stringValue?.contains("no answer to “open” of page /pages/hang") == true, "\(crashes.all)")
        // The plugin is restarted (a first crash): its other pages work again, and the page
        // that hung does not ask again by itself (its Restart button would).
        try app.shell.navigate(to: "/pages/hello")
        #expect(await app.waitFor("Hello from a plugin page"), "\(app.screen.render())")
        #expect(crashes.all.count == 1, "the page that hung did not ask again: \(crashes.all)")
    }

    @Test("a page request whose handler hangs past the process's event deadline: stopped once, and the page says so")
    func handlerHang() async throws {
        let clock = ManualClock()
        let app = try await App.started(clock: PluginClock(clock), deadline: .seconds(30), eventDeadline: .seconds(1))
        let crashes = EventRecorder(bus: app.shell.bus, pattern: "plugin:crashed")
        try app.shell.navigate(to: "/pages/hang")
        clock.advance(by: .seconds(2))
        #expect(await app.waitFor("The plugin “Pages” stopped"), "\(app.screen.render())")
        #expect(app.screen.render().contains("pages:page:open"), "\(app.screen.render())")
        try app.shell.navigate(to: "/pages/hello")
        #expect(await app.waitFor("Hello from a plugin page"), "\(app.screen.render())")
        #expect(crashes.all.count == 1, "the page that hung did not ask again: \(crashes.all)")
    }

    @Test("rows asked for and never sent: the page says the plugin did not answer, after the page opened fine")
    func rowsNeverSent() async throws {
        let clock = ManualClock()
        let app = try await App.started(clock: PluginClock(clock), deadline: .seconds(1), eventDeadline: .seconds(30))
        try app.shell.navigate(to: "/pages/mute")
        // The page opens as a table, then asks for the rows it shows when they are read (as
        // the render does), "…" until they come; they never do.
        #expect(await eventually { app.screen.table != nil }, "\(app.screen.render())")
        _ = app.screen.render()
        clock.advance(by: .seconds(2))
        #expect(await app.waitFor("did not answer in time"), "\(app.screen.render())")
        #expect(app.screen.render().contains("no answer to “fetch 0” of page /pages/mute"), "\(app.screen.render())")
    }

    @Test("a crash while a page is open: the page says so and comes back when the plugin restarts")
    func crashAndRestart() async throws {
        let app = try await App.started()
        try app.shell.navigate(to: "/pages/hello")
        #expect(await app.waitFor("Hello from a plugin page"))
        let restarted = EventRecorder(bus: app.shell.bus, pattern: "plugin:restarted")
        #expect(app.host.kill("pages", because: "the test kills it"))
        #expect(await eventually { !restarted.all.isEmpty })
        #expect(await app.waitFor("Hello from a plugin page"), "\(app.screen.render())")
    }

    @Test("a disabled plugin's page says so and turns it on again")
    func disabled() async throws {
        let app = try await App.started()
        _ = try await app.host.setEnabled("pages", false)
        try app.shell.navigate(to: "/pages/hello")
        #expect(await app.waitFor("The plugin “Pages” is turned off."), "\(app.screen.render())")
        try app.screen.pressPageAction("restart")
        #expect(await app.waitFor("Hello from a plugin page"), "\(app.screen.render())")
    }

    @Test("a command placed on page actions: a button on the pages of its routes, the app's and the plugin's, telling the plugin which page")
    func pageActions() async throws {
        let app = try await App.started(appRoutes: ["/app/:id", "/other"])
        let commands = EventRecorder(bus: app.shell.bus, pattern: "pages:command")
        try app.shell.navigate(to: "/app/5")
        #expect(app.screen.render().contains("(Mark)"), "\(app.screen.render())")
        try app.screen.pressPageAction("plugin-pages-mark")
        #expect(await eventually { !commands.all.isEmpty })
        #expect(commands.all.first?.data == ["command": "mark", "path": "/app/5", "parameters": ["id": "5"]])
        try app.shell.navigate(to: "/other")
        #expect(!app.screen.render().contains("(Mark)"))
        try app.shell.navigate(to: "/pages/hello")
        #expect(await app.waitFor("Hello from a plugin page"))
        #expect(app.screen.render().contains("(Mark)"))
        // Disabled, the plugin's buttons go.
        _ = try await app.host.setEnabled("pages", false)
        #expect(await eventually { !app.screen.render().contains("(Mark)") }, "\(app.screen.render())")
    }

    @Test("a plugin waiting for onRoute: its library is opened when its page is opened, and the page shows")
    func activatedByItsPage() async throws {
        let app = try await App.started(activation: #"["onRoute:/pages/hello"]"#)
        #expect(app.host.report(for: "pages")?.state == .waiting(activation: [.onRoute("/pages/hello")]))
        #expect(app.pages.registeredRoutes(of: "pages").count == 6, "its routes are there before its code runs")
        let activated = EventRecorder(bus: app.shell.bus, pattern: "plugin:activated")
        try app.shell.navigate(to: "/pages/hello")
        #expect(await app.waitFor("Hello from a plugin page"), "\(app.screen.render())")
        #expect(activated.all.count == 1)
        #expect(app.host.report(for: "pages")?.state == .loaded)
    }

    @Test("two plugins contributing one route: the first found keeps it, the second's is refused naming both, and it still loads")
    func twoPlugins() async throws {
        let app = try await App.started(secondCopy: "pages-again")
        let refusals = app.pages.registerRoutes()
        #expect(refusals.contains(#"plugin "pages-again": route /pages/hello refused: plugin "pages" has /pages/hello already"#), "\(refusals)")
        #expect(app.host.report(for: "pages-again")?.state == .loaded)
        try app.shell.navigate(to: "/pages/hello")
        #expect(await app.waitFor("Hello from a plugin page"), "served by the first plugin: \(app.screen.render())")
    }

    @Test("a route outside the plugin's id without a contribute grant is refused naming the permission; the plugin still loads, and may not open it")
    func contributeDenied() async throws {
        let app = try await App.started(secondCopy: "squatter", secondCopyGranted: false)
        #expect(app.pages.registeredRoutes(of: "squatter").isEmpty)
        #expect(app.host.report(for: "squatter")?.state == .loaded)
        let refusals = app.pages.registerRoutes()
        #expect(refusals.contains(#"plugin "squatter": route /pages/rows refused: it is not under /squatter and no "contribute" permission covers it (add it to "permissions" in its plugin.json)"#),
                "\(refusals)")
        #expect(app.host.report(for: "squatter")?.manifest?.permissions.ownRoutes == [])
        #expect(app.pages.registeredRoutes(of: "pages").count == 6, "the first plugin keeps its pages")
    }

    @Test("a route the app already has is refused naming both; the plugin's other pages stay")
    func conflict() async throws {
        let app = try await App.started(appRoutes: ["/pages/hello"])
        // Registered in App.init: the refusal names the app's route.
        #expect(!app.pages.registeredRoutes(of: "pages").contains { $0.pattern.text == "/pages/hello" })
        let refusals = app.pages.registerRoutes()
        #expect(refusals == [#"plugin "pages": route /pages/hello refused: it would shadow the app's route /pages/hello or a page below it"#], "\(refusals)")
        #expect(app.pages.registeredRoutes(of: "pages").map(\.pattern.text) == ["/pages/rows", "/pages/form", "/pages/bad", "/pages/hang", "/pages/mute"])
    }

    @Test("a plugin's page never shadows an app route or a page below it (/catalog/3 beside /catalog/:id): refused, naming it")
    func shadowing() async throws {
        let app = try await App.started(appRoutes: ["/pages/:anything"])
        let refusals = app.pages.registerRoutes()
        #expect(refusals.count == 6 && refusals.allSatisfy { $0.contains("refused: it would shadow the app's route /pages/:anything") }, "\(refusals)")
        #expect(app.pages.registeredRoutes(of: "pages").isEmpty)
    }
}
