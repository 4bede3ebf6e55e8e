import TrellisCore

/// The pages plugins contribute (their manifests' `"routes"`), registered on the shell's route
/// table as ``PluginPage``s: what an app sets up after loading its plugins to show them.
///
/// ```swift
/// let pages = PluginPageRoutes(shell: shell, host: plugins)
/// pages.registerRoutes()        // after the app's own routes and plugins.loadAll()
/// try shell.navigate(to: "/weather")
/// ```
///
/// Routes come from the manifests alone: a plugin waiting for its activation has its pages
/// registered, and opening one activates it. A pattern that matches the same paths as one the
/// app or an earlier plugin registered is refused (logged naming both), and so is one outside
/// the plugin's `contribute` permission (``PluginPermissions``); the plugin keeps its other
/// pages. A plugin reloaded with a changed manifest gets its new routes.
@MainActor
public final class PluginPageRoutes {
    /// The plugins whose pages these are.
    public let host: PluginHost
    /// How long a plugin may take to answer a page's request (open, fetch rows, a form's
    /// button) before the page shows an error and the plugin's process is stopped.
    public let deadline: Duration
    private(set) weak var shell: Shell?
    private var routes: [String: [PluginRoute]] = [:]

    public init(shell: Shell, host: PluginHost, deadline: Duration? = nil) {
        self.shell = shell
        self.host = host
        self.deadline = deadline ?? host.loader.deadlines.event
        shell.provide(self)
        shell.bus.watchOnMainActor(PluginReloaded.self, owner: self) { pages, reloaded in
            pages.registerRoutes(of: reloaded.plugin)
        }
        // The plugins' `pageActions` commands, as buttons of the pages of their routes.
        shell.contributePageActions { [weak self] page in self?.commandButtons(for: page) ?? [] }
        shell.bus.watchOnMainActor(PluginEvents.all, owner: self) { pages, _ in
            // A command's plugin was enabled, disabled or crashed: show the buttons as they are now.
            if let top = pages.shell?.navigator.top { top.changed() }
        }
    }

    /// The buttons of the loaded (or waiting) plugins' `pageActions` commands for `page`.
    private func commandButtons(for page: PageController) -> [ContributedPageAction] {
        guard let pattern = try? RoutePattern(page.values.pattern) else { return [] }
        let reports = host.reports.filter { $0.state == .loaded || $0.state.isWaiting }
        let contributions = reports.flatMap { report in
            (report.manifest?.commands ?? []).map { PluginCommandContribution(plugin: report.id, command: $0, accelerator: nil) }
        }
        return contributions.filter { contribution in
            contribution.command.placement == .pageActions
                && contribution.command.routes.contains { $0.matchesSamePaths(as: pattern) }
        }.map { contribution in
            ContributedPageAction(action: PageAction(id: contribution.actionName, label: Localization.translate(contribution.command.title, plugin: contribution.plugin))) { [host] page in
                host.invoke(contribution, page: page.values)
            }
        }
    }

    /// Registers the routes of every plugin found (loaded, waiting, disabled or failed with a
    /// readable manifest). Returns the refusals, as logged.
    @discardableResult
    public func registerRoutes() -> [String] {
        host.reports.flatMap { registerRoutes(of: $0.id) }
    }

    /// The route `pattern` of plugin `plugin`, as its manifest declares it.
    public func route(plugin: String, pattern: String) -> PluginRoute? {
        routes[plugin]?.first { $0.pattern.text == pattern }
    }

    /// The routes of plugin `plugin` that are registered now.
    public func registeredRoutes(of plugin: String) -> [PluginRoute] { routes[plugin] ?? [] }

    @discardableResult
    private func registerRoutes(of plugin: String) -> [String] {
        guard let shell else { return [] }
        let owner = "plugin:\(plugin)"
        shell.unroute(owner: owner)
        routes[plugin] = nil
        guard let manifest = host.report(for: plugin)?.manifest else { return [] }
        var refusals: [String] = []
        var registered: [PluginRoute] = []
        for route in manifest.routes {
            let appRoutes = shell.routes.entries.filter { !$0.owner.hasPrefix("plugin:") }.map(\.pattern)
            if let reason = PluginRouteRefusal.reason(for: route, plugin: plugin, permissions: manifest.permissions, appRoutes: appRoutes,
                                                      taken: shell.routes.entries.map { ($0.pattern, $0.owner) }) {
                let refusal = "plugin \"\(plugin)\": route \(route.pattern.text) refused: \(reason)"
                host.logger.warning("\(refusal)")
                refusals.append(refusal)
                continue
            }
            do {
                try shell.route(route.pattern.text, to: PluginPage.self, isPublic: route.isPublic, owner: owner,
                                options: ["plugin": .string(plugin)])
                registered.append(route)
            } catch {
                host.logger.error("plugin \"\(plugin)\": route \(route.pattern): \(error)")
            }
        }
        routes[plugin] = registered
        return refusals
    }
}
