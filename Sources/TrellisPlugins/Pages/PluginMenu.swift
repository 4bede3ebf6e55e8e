import TrellisCore

/// The plugins' items of the primary menu: each plugin's `primaryMenu` commands (see
/// ``PluginCommand``), then its pages that need no parameter (`/weather`, not
/// `/weather/:city`), under their titles. An app adds them once its plugins' pages are routed:
///
/// ```swift
/// let pages = PluginPageRoutes(shell: shell, host: plugins)
/// pages.registerRoutes()
/// shell.contributeMenuItems(PluginMenu(host: plugins, pages: pages))
/// ```
///
/// A command of a plugin that is disabled or failed is greyed out until the plugin loads again;
/// choosing one calls ``PluginHost/invoke(_:page:)``: the plugin receives `<plugin id>:command`.
@MainActor
public final class PluginMenu: MenuItemContributor {
    public let host: PluginHost
    private let pages: PluginPageRoutes?
    private var commands: [String: PluginCommandContribution] = [:]
    private var pagePaths: [String: String] = [:]
    private var owners: [String: String] = [:]

    public init(host: PluginHost, pages: PluginPageRoutes?) {
        self.host = host
        self.pages = pages
    }

    public var menuItems: [ContributedMenuItem] {
        var items: [ContributedMenuItem] = []
        for contribution in host.commandContributions() where contribution.command.placement == .primaryMenu {
            commands[contribution.actionName] = contribution
            owners[contribution.actionName] = contribution.plugin
            items.append(ContributedMenuItem(actionName: contribution.actionName,
                                             title: Localization.translate(contribution.command.title, plugin: contribution.plugin),
                                             accelerator: contribution.accelerator, contributor: "plugin \"\(contribution.plugin)\""))
        }
        for report in host.reports {
            for route in pages?.registeredRoutes(of: report.id) ?? []
            where !route.pattern.text.contains(":") && !route.pattern.text.contains("*") {
                let name = PluginCommandContribution.actionName(plugin: report.id, item: "page" + route.pattern.text)
                pagePaths[name] = route.pattern.text
                items.append(ContributedMenuItem(actionName: name, title: Localization.translate(route.title, plugin: report.id),
                                                 contributor: "plugin \"\(report.id)\""))
            }
        }
        return items
    }

    public func isAvailable(_ item: ContributedMenuItem) -> Bool {
        // A page opens whatever its plugin's state: the page says what is wrong.
        guard let plugin = owners[item.actionName] else { return true }
        let state = host.report(for: plugin)?.state
        return state == .loaded || state?.isWaiting == true
    }

    public func perform(_ item: ContributedMenuItem) {
        if let contribution = commands[item.actionName] {
            host.invoke(contribution)
        } else if let path = pagePaths[item.actionName], let shell = pages?.shell {
            do throws(NavigationError) { try shell.navigate(to: path) } catch { shell.navigator.top?.message = error.description }
        }
    }

    public var availabilityChangedPattern: String { "plugin:*" }
}
