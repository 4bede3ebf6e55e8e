import TrellisCore

/// What a plugin may do through the host functions, granted by the `permissions` key of its
/// `plugin.json`:
///
/// ```json
/// "permissions": {
///   "trigger": ["activity:changed"],
///   "watch": ["network:*"],
///   "navigate": ["/events", "/notes/:id"],
///   "request": ["saveNote"],
///   "contribute": ["/network", "/network/:id"]
/// }
/// ```
///
/// - `trigger`, `watch`: event patterns (the bus's `*` wildcards). A plugin may always trigger
///   and watch its own namespace, `<id>:*`. A watch pattern with wildcards is allowed when a
///   grant covers it as text: `network:*` covers `network:on` and `network:*`, not `*`.
/// - `navigate`: route patterns (`/notes/:id`, `/files/*path`). Without a grant a plugin opens
///   public routes only, as a deep link does; a granted route opens even if it is not public.
/// - `request`: front-controller command names, with `*` wildcards. Without a grant: commands
///   of its own namespace, `<id>:*`.
/// - `contribute`: route patterns the plugin may serve pages on (its manifest's `routes`).
///   Without a grant: the routes under its id, `/<id>` and `/<id>/…`. A granted pattern
///   covers the routes matching the same paths (`/network/:id` covers `/network/:item`), and
///   one ending in a splat (`/network/*rest`) every route below it. A route outside them is
///   refused when the pages are registered, logged naming the permission to add; the plugin
///   loads without that page.
///
/// A manifest without a `permissions` key gets its own namespace only (events and commands
/// `<id>:*`, public routes, pages under `/<id>`): no implicit trust, whatever its ABI version.
/// A plugin written for ABI 1 before permissions existed, which relied on any event and
/// command, must now say what it uses. The files, network, programs and environment a
/// plugin may reach are granted by the same key (``PluginResourceGrants``).
public struct PluginPermissions: Sendable, Hashable {
    /// One kind of call a grant is for: the keys of `permissions`.
    public enum Kind: String, Sendable, CaseIterable {
        case trigger, watch, navigate, request, contribute
    }

    /// The patterns granted, by kind (empty kinds are absent).
    public var grants: [Kind: [String]]
    /// The files, network, programs and environment variables granted.
    public var resources: PluginResourceGrants
    /// The route patterns the plugin contributes (its manifest's `routes`): it may always open
    /// them, public or not, as it may its own events.
    public var ownRoutes: [String] = []

    /// A grant of `grants`, beyond the plugin's own namespace and the public routes.
    public init(grants: [Kind: [String]] = [:], resources: PluginResourceGrants = PluginResourceGrants()) {
        self.grants = grants.filter { !$0.value.isEmpty }
        self.resources = resources
    }

    /// The patterns that apply to `kind` for plugin `pluginID`: its own namespace first (for
    /// events and commands; for contributed routes, those under its id), then the grants.
    public func patterns(_ kind: Kind, pluginID: String) -> [String] {
        let own = switch kind {
        case .navigate: [String]()
        case .contribute: ["/\(pluginID)", "/\(pluginID)/*rest"]
        default: ["\(pluginID):*"]
        }
        return own + (grants[kind] ?? [])
    }

    /// The patterns of `routes` plugin `pluginID` may serve pages on: the routes that are its
    /// own to open (``ownRoutes``).
    func contributable(_ routes: [PluginRoute], pluginID: String) -> [String] {
        routes.filter { allowsContributing($0.pattern, pluginID: pluginID) }.map(\.pattern.text)
    }

    /// Whether plugin `pluginID` may serve pages on `pattern`: one under its id, or one a
    /// `contribute` grant covers (see the type's documentation).
    public func allowsContributing(_ pattern: RoutePattern, pluginID: String) -> Bool {
        patterns(.contribute, pluginID: pluginID).contains { text in
            guard let granted = try? RoutePattern(text) else { return false }  // checked when read
            if granted.matchesSamePaths(as: pattern) { return true }
            guard case .splat? = granted.segments.last else { return false }
            let prefix = granted.segments.dropLast()
            return pattern.segments.count > prefix.count
                && zip(prefix, pattern.segments).allSatisfy { $0 == $1 || ($0.isParameter && $1.isParameter) }
        }
    }

    /// Whether plugin `pluginID` may make a call of `kind` on `name` (an event message, a watch
    /// pattern, a command). Not for `navigate`: routes are matched by ``PluginGate``.
    public func allows(_ kind: Kind, _ name: String, pluginID: String) -> Bool {
        patterns(kind, pluginID: pluginID).contains { pattern in
            pattern == name || MessagePattern(pattern).matches(name)
        }
    }

    /// One line for people: `trigger: a:*, b · watch: … · navigate: public routes, /events`.
    public func summary(pluginID: String) -> String {
        let own = ownRoutes.isEmpty ? "" : ", its own routes"
        // Where pages may be contributed is said only of a plugin that contributes some.
        let kinds = ownRoutes.isEmpty && grants[.contribute] == nil ? Kind.allCases.filter { $0 != .contribute } : Kind.allCases
        return kinds.map { kind in
            let shown = switch kind {
            case .navigate: ["public routes\(own)"] + patterns(kind, pluginID: pluginID)
            case .contribute: ["/\(pluginID) and below"] + (grants[kind] ?? [])
            default: patterns(kind, pluginID: pluginID)
            }
            return "\(kind.rawValue): \(shown.joined(separator: ", "))"
        }.joined(separator: " · ") + resourceSummary
    }

    /// The resource grants in one piece of ``summary(pluginID:)``: ` · files: ~/Music (read) · network: …`.
    private var resourceSummary: String {
        var parts: [String] = []
        if !resources.files.isEmpty {
            parts.append("files: " + resources.files.sorted { $0.key < $1.key }.map { "\($0.key) (\($0.value.rawValue))" }.joined(separator: ", "))
        }
        if !resources.network.isEmpty { parts.append("network: " + resources.network.joined(separator: ", ")) }
        if !resources.exec.isEmpty { parts.append("exec: " + resources.exec.joined(separator: ", ")) }
        if !resources.environment.isEmpty { parts.append("environment: " + resources.environment.joined(separator: ", ")) }
        return parts.map { " · " + $0 }.joined()
    }

    /// The grants as the manifest holds them.
    public var json: JSONValue {
        .object(Dictionary(uniqueKeysWithValues: grants.map { ($0.key.rawValue, .array($0.value.map(JSONValue.string))) })
            .merging(resources.json) { first, _ in first })
    }

    /// Reads the `permissions` value of manifest `file`; every error names the key.
    package init(json: JSONValue, file: String) throws(PluginManifestError) {
        guard let object = json.objectValue else {
            throw .wrongType(file: file, key: "permissions", expected: "an object")
        }
        var grants: [Kind: [String]] = [:]
        let resources = try PluginResourceGrants(object: object, file: file)
        for (key, value) in object.sorted(by: { $0.key < $1.key }) where !PluginResourceGrants.keys.contains(key) {
            let path = "permissions.\(key)"
            guard let kind = Kind(rawValue: key) else {
                let known = (Kind.allCases.map(\.rawValue) + PluginResourceGrants.keys).map { "\"\($0)\"" }.joined(separator: ", ")
                throw .invalidValue(file: file, key: path, reason: "unknown permission (known: \(known))")
            }
            guard let array = value.arrayValue else { throw .wrongType(file: file, key: path, expected: "an array of strings") }
            var patterns: [String] = []
            for element in array {
                guard let pattern = element.stringValue else { throw .wrongType(file: file, key: path, expected: "an array of strings") }
                guard !pattern.isEmpty, !pattern.unicodeScalars.contains(where: { $0.value < 0x20 || $0.value == 0x7F }) else {
                    throw .invalidValue(file: file, key: path, reason: "\(pattern.debugDescription) is not a pattern")
                }
                if kind == .navigate || kind == .contribute {
                    do { _ = try RoutePattern(pattern) } catch {
                        throw .invalidValue(file: file, key: path, reason: "\(pattern.debugDescription) is not a route pattern: \(error)")
                    }
                }
                patterns.append(pattern)
            }
            grants[kind] = patterns
        }
        self.init(grants: grants, resources: resources)
    }
}

extension RouteSegment {
    fileprivate var isParameter: Bool { if case .parameter = self { true } else { false } }
}

extension MessagePattern {
    /// Whether the text `name` matches this pattern.
    fileprivate func matches(_ name: String) -> Bool {
        switch self {
        case .exact(let exact): exact == name
        case .wildcard(let glob): glob.matches(name)
        }
    }
}
