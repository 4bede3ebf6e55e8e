import TrellisCore

/// Why a page a plugin's manifest declares is not served (the plugin loads without it): one
/// rule for ``PluginPageRoutes``, which registers the pages, and for `trellis plugins`, which
/// lists a refused page as refused, never among what the plugin contributes.
///
/// ```swift
/// let reason = PluginRouteRefusal.reason(for: route, plugin: "weather", permissions: manifest.permissions,
///                                        appRoutes: [try RoutePattern("/catalog")], taken: [])
/// // nil: served; else "it would shadow the app's route /catalog or a page below it", say
/// ```
public enum PluginRouteRefusal {
    /// A route registered already, and who has it: `demo` (the app), `plugin:weather`.
    public typealias Taken = (pattern: RoutePattern, owner: String)

    /// Why `route` of plugin `plugin` is refused, or nil when it is served. `appRoutes`: the
    /// app's own routes; `taken`: every route registered before it (the app's and the plugins'
    /// found earlier).
    public static func reason(for route: PluginRoute, plugin: String, permissions: PluginPermissions,
                              appRoutes: [RoutePattern], taken: [Taken]) -> String? {
        guard permissions.allowsContributing(route.pattern, pluginID: plugin) else {
            return "it is not under /\(plugin) and no \"contribute\" permission covers it (add it to \"permissions\" in its plugin.json)"
        }
        if let shadowed = PluginReservedNames.appRoute(shadowedBy: route.pattern, among: appRoutes) {
            return "it would shadow the app's route \(shadowed) or a page below it"
        }
        if let holder = taken.first(where: { $0.pattern.matchesSamePaths(as: route.pattern) }) {
            let who = holder.owner.hasPrefix("plugin:") ? "plugin \"\(holder.owner.dropFirst("plugin:".count))\"" : "the app (\(holder.owner))"
            return "\(who) has \(holder.pattern) already"
        }
        return nil
    }

    /// The pages of each report's plugin that would be refused, in the order the reports were
    /// found (an earlier plugin keeps a route both declare), by plugin id: what `trellis plugins`
    /// shows of an app whose own routes are `appRoutes`.
    public static func refusals(in reports: [PluginReport], appRoutes: [RoutePattern]) -> [String: [(route: PluginRoute, reason: String)]] {
        var taken: [Taken] = appRoutes.map { ($0, "app") }
        var refusals: [String: [(route: PluginRoute, reason: String)]] = [:]
        for report in reports {
            guard let manifest = report.manifest else { continue }
            for route in manifest.routes {
                if let reason = reason(for: route, plugin: report.id, permissions: manifest.permissions, appRoutes: appRoutes, taken: taken) {
                    refusals[report.id, default: []].append((route, reason))
                } else {
                    taken.append((route.pattern, "plugin:\(report.id)"))
                }
            }
        }
        return refusals
    }
}
