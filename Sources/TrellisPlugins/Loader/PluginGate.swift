import TrellisCore

/// Checks each call of one plugin against its ``PluginPermissions`` before the host acts on
/// it: on the shell's side of a plugin process (which does not trust the process), beside the
/// plugin host inside the process (which answers the plugin `TRELLIS_ERROR_DENIED` at once). A denial is logged once per plugin,
/// call and name, naming the permission that would allow it.
package final class PluginGate: Sendable {
    /// What a plugin's navigation may do.
    package enum Navigation: Sendable, Equatable {
        /// A `navigate` grant covers the path: it opens even if its route is not public.
        case granted
        /// Public routes only (an unknown path goes on, to fail as any navigation does).
        case publicOnly
        /// The path's route is not public and no grant covers it; the reason, for the log.
        case denied(String)

        package var isDenied: Bool {
            if case .denied = self { true } else { false }
        }
    }

    /// The event that asks for a navigation over the bus (`{"path", "data"}`): from a plugin it
    /// is a `navigate` call, checked against the `navigate` permission rather than `trigger`.
    package static let navigationMessage = RouteOpen.name

    /// The most distinct denials logged per plugin; later ones are counted, not logged.
    static let maximumLoggedDenials = 100

    package let pluginID: String
    package let permissions: PluginPermissions
    private let grantedRoutes = RouteTable<Bool>()
    private let isPublicRoute: @Sendable (String) -> Bool?
    private let log: @Sendable (String) -> Void
    private let logged = LockedState<Set<String>>([])

    /// - Parameters:
    ///   - isPublicRoute: whether the route `path` leads to is public; nil when no route
    ///     matches or the routes are not known here.
    ///   - log: where a denial is said, once per call and name.
    package init(pluginID: String, permissions: PluginPermissions,
                 isPublicRoute: @escaping @Sendable (String) -> Bool?, log: @escaping @Sendable (String) -> Void) {
        self.pluginID = pluginID
        self.permissions = permissions
        self.isPublicRoute = isPublicRoute
        self.log = log
        for pattern in (permissions.grants[.navigate] ?? []) + permissions.ownRoutes {
            // Checked when the manifest was read; an unparsable pattern grants nothing.
            _ = try? grantedRoutes.add(pattern, owner: pluginID, target: true)
        }
    }

    /// Whether the plugin may trigger event `message`, watch `pattern` or request command
    /// `command` (by `kind`); logs a denial once.
    package func allows(_ kind: PluginPermissions.Kind, _ name: String) -> Bool {
        guard !permissions.allows(kind, name, pluginID: pluginID) else { return true }
        let granted = permissions.patterns(kind, pluginID: pluginID).joined(separator: ", ")
        deny(kind, name, "no \"\(kind.rawValue)\" permission covers it (granted: \(granted)); "
             + "add a pattern to \"permissions\" in its plugin.json")
        return false
    }

    /// What the plugin's navigation to `path` may do; logs a denial once.
    package func navigation(to path: String) -> Navigation {
        if (try? grantedRoutes.match(path)) != nil { return .granted }
        guard isPublicRoute(path) == false else { return .publicOnly }
        let granted = permissions.grants[.navigate]?.joined(separator: ", ") ?? "none"
        let reason = "its route is not public and no \"navigate\" permission covers it (granted: \(granted)); "
            + "add the route pattern to \"permissions\" in its plugin.json"
        deny(.navigate, path, reason)
        return .denied(reason)
    }

    // MARK: Across the process boundary

    /// The first message a plugin process reads: `permissions` and the routes known now with whether each is public (null when unknown), so
    /// that the process answers a denied call at once, as the shell would.
    /// `memoryLimit`: the most memory the process may allocate, in bytes (nil: no limit).
    package static func grantsMessage(_ permissions: PluginPermissions, routes: [(pattern: String, isPublic: Bool)]?,
                                      memoryLimit: Int?) -> JSONValue {
        [
            "op": "grants",
            "memoryLimit": memoryLimit.map { .number(Double($0)) } ?? .null,
            "permissions": permissions.json,
            "ownRoutes": .array(permissions.ownRoutes.map(JSONValue.string)),
            "routes": routes.map { routes in
                .array(routes.map { ["pattern": .string($0.pattern), "public": .bool($0.isPublic)] })
            } ?? .null,
        ]
    }

    /// The gate a plugin process builds from ``grantsMessage(_:routes:)``. Routes added later
    /// are unknown to it (navigation to them goes on, and the shell decides); the shell checks
    /// every call again, so a process that lies gains nothing.
    package convenience init(pluginID: String, grantsMessage message: JSONValue,
                             log: @escaping @Sendable (String) -> Void) throws(PluginManifestError) {
        var permissions: PluginPermissions
        if let value = message["permissions"], !value.isNull {
            permissions = try PluginPermissions(json: value, file: "the grants of plugin \"\(pluginID)\"")
        } else {
            permissions = PluginPermissions()
        }
        permissions.ownRoutes = message["ownRoutes"]?.arrayValue?.compactMap(\.stringValue) ?? []
        let routes = RouteTable<Bool>()
        for route in message["routes"]?.arrayValue ?? [] {
            guard let pattern = route["pattern"]?.stringValue else { continue }
            _ = try? routes.add(pattern, owner: "shell", target: route["public"]?.boolValue ?? false)
        }
        self.init(pluginID: pluginID, permissions: permissions,
                  isPublicRoute: { path in (try? routes.match(path))?.target }, log: log)
    }

    private func deny(_ kind: PluginPermissions.Kind, _ name: String, _ reason: String) {
        let key = "\(kind.rawValue) \(name)"
        let (first, full) = logged.withLock { logged -> (Bool, Bool) in
            guard logged.count < Self.maximumLoggedDenials else { return (false, false) }
            let inserted = logged.insert(key).inserted
            return (inserted, inserted && logged.count == Self.maximumLoggedDenials)
        }
        guard first else { return }
        let shown = name.count > 120 ? String(name.prefix(120)).debugDescription + "…" : name.debugDescription
        log("plugin \"\(pluginID)\": \(kind.rawValue == "request" ? "handle_request" : kind.rawValue) \(shown): denied: \(reason)")
        if full { log("plugin \"\(pluginID)\": \(Self.maximumLoggedDenials) different calls denied; further denials are not logged") }
    }
}
