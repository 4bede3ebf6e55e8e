import Foundation
import Testing
import TrellisCore
import TrellisPlugins
@testable import TrellisDemo
import TrellisHeadless
import TrellisTesting

/// The demo's pages, driven headless as a person would drive the window.
@MainActor
@Suite("Demo pages, headless")
struct DemoPagesTests {
    @Test("the catalog lists every genre and a row opens its detail page; Back returns")
    func catalogToDetailAndBack() throws {
        let (shell, screen) = try Fixtures.demo()
        try shell.navigate(to: "/catalog")
        #expect(screen.table?.container.flatCount == 214)
        try screen.type("фэнтези")
        let shown = try #require(screen.table?.render())
        #expect(shown.count == 11)
        #expect(shown.allSatisfy { $0.lowercased().contains("фэнтези") })
        try screen.click(text: "Фэнтези")
        #expect(screen.page?.values.path == "/catalog/5")
        #expect(screen.render().contains("Genre: Фэнтези"))
        #expect(screen.back())
        #expect(screen.page?.title == "Catalog")
        #expect(screen.table?.searchText == "фэнтези", "the catalog page keeps its search when uncovered")
    }

    @Test("adding a favourite on a genre page lists it, alone, on the favourites page")
    func favouriteFromDetail() async throws {
        let (shell, screen) = try Fixtures.demo()
        try shell.navigate(to: "/favourites")
        #expect(screen.table?.container.placeholder == "No favourites yet. Press + to pick genres from the catalog.")
        try shell.navigate(to: "/catalog/5")
        try screen.press("favourite")
        try await screen.settle()
        #expect(screen.render().contains("(Remove from favourites)"))
        try shell.navigate(to: "/favourites")
        #expect(screen.table?.render() == ["[x] Фэнтези"])
    }

    @Test("ticking boxes (or clicking anywhere on their rows) on the catalog checklist selects several genres")
    func favouritesChecklist() throws {
        let (shell, screen) = try Fixtures.demo()
        try shell.navigate(to: "/favourites")
        try screen.pressPageAction("add")
        #expect(screen.page?.values.path == "/favourites/add")
        try screen.toggle(row: 0)
        try screen.click(row: 2)  // the whole row toggles, not only its box
        let model = try #require(shell.resolve(DemoModel.self))
        #expect(model.favourites == [0, 2])
        try screen.toggle(row: 0)
        #expect(model.favourites == [2])
    }

    @Test("the favourites page lists the favourites only; a click unticks one, a second puts it back")
    func favouritesList() throws {
        let (shell, screen) = try Fixtures.demo()
        let model = try #require(shell.resolve(DemoModel.self))
        for index in [7, 3, 5] { model.setFavourite(index, true) }
        let catalog = try Fixtures.catalog()
        try shell.navigate(to: "/favourites")
        #expect(screen.table?.render() == [3, 5, 7].map { "[x] \(catalog[$0])" }, "in catalog order")
        try screen.click(row: 1)
        #expect(model.favourites == [3, 7])
        #expect(screen.table?.render() == ["[x] \(catalog[3])", "[ ] \(catalog[5])", "[x] \(catalog[7])"],
                "the unticked genre stays until the page is shown again")
        try screen.click(row: 1)
        #expect(model.favourites == [3, 5, 7])
        try screen.click(row: 0)
        try screen.pressPageAction("add")
        screen.back()
        #expect(screen.table?.render() == [5, 7].map { "[x] \(catalog[$0])" })
    }

    @Test("favourites are still ticked after a restart; a damaged favourites file is set aside, not lost")
    func favouritesOutliveTheWindow() throws {
        let url = Fixtures.temporaryStoreURL()
        do {
            let (shell, screen) = try Fixtures.demo(storeURL: url)
            try shell.navigate(to: "/favourites/add")
            try screen.toggle(row: 1)
            try screen.toggle(row: 3)
        }
        let (shell, screen) = try Fixtures.demo(storeURL: url)  // the next run, same data
        #expect(try #require(shell.resolve(DemoModel.self)).favourites == [1, 3])
        try shell.navigate(to: "/favourites/add")
        let lines = try #require(screen.table?.render())
        #expect(lines.indices.filter { lines[$0].hasPrefix("[x]") } == [1, 3])
        try shell.navigate(to: "/favourites")
        #expect(screen.table?.container.flatCount == 2)

        let file = url.appendingPathExtension("favourites.json")
        try Data("[{\"index\": ".utf8).write(to: file)
        let (again, _) = try Fixtures.demo(storeURL: url)
        #expect(try #require(again.resolve(DemoModel.self)).favourites.isEmpty)
        #expect(try Data(contentsOf: file.appendingPathExtension("damaged")) == Data("[{\"index\": ".utf8))
    }

    @Test("the people page shows first name, last name and age columns")
    func people() throws {
        let (shell, screen) = try Fixtures.demo()
        try shell.navigate(to: "/people")
        let lines = try #require(screen.table?.render())
        #expect(lines.count == 5, "the sample people are in the store from the first run")
        #expect(lines.contains("Анна | Ахматова | 76"))
        #expect(lines.first == "Grace | Hopper | 85", "sorted by last name")
    }

    @Test("the event log shows earlier and live bus events, newest first, and filters them")
    func eventLog() async throws {
        let (shell, screen) = try Fixtures.demo()
        try shell.services.stop("location")  // its updates every 2 s would interleave with the events under test
        shell.bus.trigger("demo:first")
        shell.bus.trigger("demo:before", ["n": 1])
        try await screen.settle()
        try shell.navigate(to: "/events")
        shell.bus.trigger("demo:after")
        try await screen.settle()
        let lines = try #require(screen.table?.render())
        // Local time, two spaces, the event; newest first, earlier events included.
        let texts = lines.map { String($0.drop { $0 != " " }.dropFirst(2)) }.filter { $0.hasPrefix("demo:") }
        #expect(texts == ["demo:after", "demo:before {\"n\":1}", "demo:first"], "\(lines)")
        #expect(lines.allSatisfy { $0.range(of: #"^\d\d:\d\d:\d\d  "#, options: .regularExpression) != nil }, "\(lines)")
        try screen.type("before")
        #expect(screen.table?.render().map { String($0.dropFirst(10)) } == ["demo:before {\"n\":1}"])
    }

    /// NetworkActivity runs in a process of its own: its answers (`activity:changed`) come back
    /// over its socket after `trigger` returns, and `settle()` waits for them. The sequence of
    /// answers tells a plugin that hid the indicator at the first `network:off` (it would show
    /// it again at the next `network:on`) from one that counts; the last `network:on` is the
    /// barrier that shows the stray `network:off` before it changed nothing (had it counted,
    /// that `network:on` would only bring the count to zero).
    @Test("network activity shows while network:on outnumbers network:off")
    func activityIndicator() async throws {
        let (shell, screen) = try Fixtures.demo()
        let changes = EventRecorder(bus: shell.bus, pattern: "activity:changed")
        for message in ["network:on", "network:on", "network:off", "network:on", "network:off"] {
            shell.bus.trigger(message)
        }
        try await screen.settle()
        #expect(screen.isActivityVisible, "two requests are still running")
        #expect(screen.render().contains("[busy]"))
        shell.bus.trigger("network:off")
        try await screen.settle()
        #expect(!screen.isActivityVisible)
        #expect(screen.render().contains("[busy]") == false)
        shell.bus.trigger("network:off")  // stray: logged and ignored
        shell.bus.trigger("network:on")
        try await screen.settle()
        #expect(changes.all.map { $0.data["active"]?.boolValue } == [true, false, true])
    }

    @Test("1,000 navigate/back cycles leave no page and no watcher behind")
    func navigateBackCycles() throws {
        let (shell, screen) = try Fixtures.demo()
        try shell.navigate(to: "/catalog")
        let watches = shell.bus.watchCount
        weak var lastPage: PageController?
        for index in 0..<1000 {
            try shell.navigate(to: "/catalog/\(index % 214)")
            lastPage = shell.navigator.top
            #expect(screen.back())
        }
        #expect(lastPage == nil)
        #expect(shell.bus.watchCount == watches)
        #expect(shell.navigator.stack.count == 2)
    }
}

@MainActor
@Suite("Demo services, headless")
struct DemoServicesTests {
    @Test("net_state comes from the network-activity plugin, not the built-in service")
    func netStateFromPlugin() throws {
        let (shell, screen) = try Fixtures.demo()
        let netState = try #require(shell.services.services.first { $0.name == "net_state" })
        #expect(netState.owner != "demo", "the plugin supersedes the built-in (owner \(netState.owner))")
        #expect(netState.isRunning)
        try shell.navigate(to: "/plugins")
        let lines = try #require(screen.table?.render())
        #expect(lines.contains { $0.hasPrefix("[x] Network Activity · 1.0.0 · loaded") }, "\(lines)")
        #expect(lines.contains { $0.hasPrefix("[x] Location · 1.0.0 · loaded") }, "\(lines)")
    }

    @Test("each plugin's line on /plugins says what confines it, as its process applied it")
    func confinementShown() async throws {
        let (shell, screen) = try Fixtures.demo()
        try shell.navigate(to: "/plugins")
        #expect(await eventually { screen.table?.render().contains { $0.contains("Location · 1.0.0 · loaded") } == true })
        let lines = try #require(screen.table?.render())
        let location = try #require(lines.first { $0.contains("Location · 1.0.0 · loaded") })
        let applied = try #require(shell.resolve(PluginHost.self)?.report(for: "location")?.confinement)
        #expect(location.contains("confined by: \(applied.summary)"), "\(location)")
        #expect(screen.page?.actions.isEmpty == true, "no plugin waits for approval: \(screen.page?.actions ?? [])")
    }

    @Test("the Location plugin's status item shows in the status line, and goes when its service stops")
    func locationStatus() async throws {
        let (shell, screen) = try Fixtures.demo()
        let format = #"^Location: -?\d+\.\d{5}, -?\d+\.\d{5} ±\d+ m$"#
        #expect(await eventually { screen.status?.range(of: format, options: .regularExpression) != nil }, "\(screen.status ?? "no status")")
        #expect(screen.render().contains("\n-- Location: "))
        shell.bus.trigger("location:status", ["item": "elsewhere", "text": "ignored: not in the manifest"])
        try shell.services.stop("location")
        #expect(await eventually { screen.status == nil }, "\(screen.status ?? "")")
    }
}
