/// What the navigator tells the bus, and what asks it to navigate, each a typed message
/// (``BusMessage``) under the `route:` namespace.
///
/// ```swift
/// bus.trigger(RouteOpen(path: "/catalog/7"))
/// bus.watchOnMainActor(RouteNavigated.self, owner: log) { log, navigated in log.append(navigated.path) }
/// ```
public enum RouteEvents {
    /// Every message of the navigator's: `route:*`.
    public static let all = "route:*"
}

/// Asks the shell to open `path`, as ``Shell/navigate(to:data:external:)`` does: `route:open`.
/// Views that hold no reference to the shell navigate with it (the seeds' `$trigger`).
public struct RouteOpen: BusMessage {
    public static let name = "route:open"
    public var path: String
    public var data: JSONValue?
    /// Open public routes only, as a link from outside does.
    public var external: Bool?

    public init(path: String, data: JSONValue? = nil, external: Bool? = nil) {
        self.path = path
        self.data = data
        self.external = external
    }
}

/// A page was pushed: `route:navigated`, with its path and the route pattern it matched.
public struct RouteNavigated: BusMessage {
    public static let name = "route:navigated"
    public var path: String
    public var pattern: String

    public init(path: String, pattern: String) {
        self.path = path
        self.pattern = pattern
    }
}

/// The top page was popped: `route:back`, with its path.
public struct RouteBack: BusMessage {
    public static let name = "route:back"
    public var path: String

    public init(path: String) {
        self.path = path
    }
}

/// A navigation failed: `route:not-found`, with the path and why (no such route, a bad path,
/// a route that is not public opened from outside).
public struct RouteNotFound: BusMessage {
    public static let name = "route:not-found"
    public var path: String
    public var error: String

    public init(path: String, error: String) {
        self.path = path
        self.error = error
    }
}
