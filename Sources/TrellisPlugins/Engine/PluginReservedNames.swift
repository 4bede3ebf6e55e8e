import TrellisCore
/// Names that are never a plugin's own. A plugin's id gives it a namespace without asking
/// (events and commands `<id>:*`, pages under `/<id>`): a plugin whose id is `store` would
/// receive the store's events as its own and could forge them, and one whose id is `catalog`
/// would serve pages among the app's. So such ids are refused when the plugin is found, with
/// the reason, and a plugin's page never shadows an app route or a route below one.
///
/// ```swift
/// let problem = PluginReservedNames.problem(withID: "store", appRoutes: [])
/// // "is an event namespace of Trellis's own (store:…): a plugin with it would receive and could forge the host's events"
/// ```
public enum PluginReservedNames {
    /// The event namespaces Trellis and its front ends, store, sync and demo trigger or watch.
    /// `PluginReservedNamesTests` reads every event name in the sources and fails when one's
    /// namespace is missing here, so this list is the only place they are spelled together.
    public static let hostNamespaces: Set<String> = [
        "activity", "app", "badge", "collection", "edit", "favourites", "model", "network", "note", "notice",
        "notification", "plugin", "request", "route", "store", "sync",
    ]

    /// Why `id` cannot be a plugin's id, or nil. `appRoutes`: the app's own routes.
    public static func problem(withID id: String, appRoutes: [RoutePattern]) -> String? {
        let name = id.lowercased()
        if hostNamespaces.contains(name) {
            return "is an event namespace of Trellis's own (\(name):…): a plugin with it would receive and could forge the host's events"
        }
        if let route = appRoutes.first(where: { firstLiteral(of: $0)?.lowercased() == name }) {
            return "is taken by the app's route \(route.text): a plugin's pages live under /<id>, among the app's"
        }
        return nil
    }

    /// The app route that `pattern`, a route a plugin contributes, would shadow, or nil: one
    /// that could match a path `pattern` matches (`/catalog/3` beside `/catalog/:id`: the
    /// plugin's literal would win), or one `pattern` lies below (`/catalog/3` below `/catalog`).
    public static func appRoute(shadowedBy pattern: RoutePattern, among appRoutes: [RoutePattern]) -> RoutePattern? {
        appRoutes.first { app in
            for (mine, theirs) in zip(pattern.segments, app.segments) {
                switch (mine, theirs) {
                case (.splat, _), (_, .splat): return true
                case (.literal(let a), .literal(let b)) where a != b: return false
                default: continue
                }
            }
            return pattern.segments.count >= app.segments.count && !(app.segments.isEmpty && !pattern.segments.isEmpty)
        }
    }

    private static func firstLiteral(of pattern: RoutePattern) -> String? {
        if case .literal(let text)? = pattern.segments.first { return text }
        return nil
    }
}
