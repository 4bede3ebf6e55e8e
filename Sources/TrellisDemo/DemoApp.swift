import TrellisCore
import TrellisPlugins
import TrellisStore

/// The demo application, built only from Trellis's public API: its routes, pages and state.
///
/// ```swift
/// let shell = Shell()
/// let data = try Resources.dataDirectory()
/// try DemoApp.install(on: shell, catalog: Resources.loadCatalog(from: data),
///                     store: DemoStore.open(dataDirectory: data, bus: shell.bus))
/// ```
@MainActor
public enum DemoApp {
    /// The routes of the demo: pattern, page, whether it may be opened from outside.
    static let routes: [(pattern: String, page: PageController.Type, isPublic: Bool)] = [
        ("/", HomePage.self, true),
        ("/catalog", CatalogPage.self, true),
        ("/catalog/:id", GenrePage.self, true),
        ("/favourites", FavouritesPage.self, true),
        ("/favourites/add", AddFavouritesPage.self, true),
        ("/people", PeoplePage.self, true),
        ("/notes", NotesPage.self, true),
        ("/notes/new", NotePage.self, true),
        ("/notes-per-day", NotesPerDayPage.self, true),
        ("/notes/:id", NotePage.self, true),
        ("/trash", TrashPage.self, true),
        ("/trash/:id", TrashedNotePage.self, true),
        ("/conflicts", ConflictsPage.self, true),
        ("/conflicts/:id", ConflictPage.self, true),
        ("/sync", SyncPage.self, true),
        ("/plugins", PluginsPage.self, true),
        ("/settings", PluginSettingsPage.self, true),
        ("/events", EventsPage.self, false),
    ]

    /// The patterns of the demo's routes (a new plugin's id must not be the first segment of one).
    public static var routePatterns: [RoutePattern] { routes.compactMap { try? RoutePattern($0.pattern) } }

    /// The demo's sections (translated titles and summaries), declared on the shell by
    /// ``install(on:catalog:store:syntheticRows:)``: the hub's rows (with their summaries), the
    /// window's sidebar and the primary menu's places.
    public static var sections: [ShellSection] {
        [ShellSection(title: tr("Catalog"), path: "/catalog", summary: tr("Book genres, searched as you type")),
         ShellSection(title: tr("Favourites"), path: "/favourites", summary: tr("Tick the genres you like")),
         ShellSection(title: tr("Notes"), path: "/notes", summary: tr("Write, edit and sync your notes")),
         ShellSection(title: tr("Notes per day"), path: "/notes-per-day", summary: tr("How many notes were written each day")),
         ShellSection(title: tr("People"), path: "/people", summary: tr("A table sorted by any of its columns")),
         ShellSection(title: tr("Plugins"), path: "/plugins", summary: tr("What each plugin may do, and its settings")),
         ShellSection(title: tr("Event log"), path: "/events", summary: tr("What went through the event bus"))]
    }

    /// Registers the demo's routes and state on `shell`.
    /// - Parameters:
    ///   - store: the store holding notes and people.
    ///   - syntheticRows: show this many synthetic rows in the catalog instead (`--rows`).
    public static func install(on shell: Shell, catalog: [String], store: PersistentStore, syntheticRows: Int? = nil) throws {
        shell.provide(EventHistory(bus: shell.bus))
        shell.provide(StoreBox(store))
        NoteCommands.map(on: shell, store: store)
        shell.provide(NoteDrafts(storeURL: store.url))
        shell.provide(DemoModel(catalog: catalog, syntheticRows: syntheticRows, bus: shell.bus, storeURL: store.url))
        for route in routes {
            try shell.route(route.pattern, to: route.page, isPublic: route.isPublic, owner: "demo")
        }
        shell.sections = sections
    }
}
