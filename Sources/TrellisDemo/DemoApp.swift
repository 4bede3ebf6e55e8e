import TrellisCore

/// The demo application, built only from Trellis's public API: its routes, pages and state.
///
/// ```swift
/// let shell = Shell()
/// try DemoApp.install(on: shell, catalog: Resources.loadCatalog(from: Resources.dataDirectory()))
/// ```
@MainActor
public enum DemoApp {
    /// The routes of the demo: pattern, page, whether it may be opened from outside.
    static let routes: [(pattern: String, page: PageController.Type, isPublic: Bool)] = [
        ("/", HomePage.self, true),
        ("/catalog", CatalogPage.self, true),
        ("/catalog/:id", GenrePage.self, true),
        ("/favourites", FavouritesPage.self, true),
        ("/people", PeoplePage.self, true),
        ("/events", EventsPage.self, false),
    ]

    /// Registers the demo's routes and state on `shell`.
    /// - Parameter syntheticRows: show this many synthetic rows in the catalog instead (`--rows`).
    public static func install(on shell: Shell, catalog: [String], syntheticRows: Int? = nil) throws {
        shell.provide(EventRecorder(bus: shell.bus))
        shell.provide(DemoModel(catalog: catalog, syntheticRows: syntheticRows, bus: shell.bus))
        for route in routes {
            try shell.route(route.pattern, to: route.page, isPublic: route.isPublic, owner: "demo")
        }
        try shell.services.register(NetworkActivityService.name, owner: "demo") { NetworkActivityService() }
        try shell.services.start(NetworkActivityService.name)
    }
}
