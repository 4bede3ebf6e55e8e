import TrellisCore

/// A page a plugin contributes in its manifest (`"routes"`), read without loading the plugin's
/// code: the app registers the pattern at start, and navigating to it shows a page the plugin
/// serves over the bus (see ``PluginPage`` for the messages).
///
/// ```json
/// "routes": [
///   {"pattern": "/weather", "title": "Weather", "content": "table", "public": true},
///   {"pattern": "/weather/:city", "title": "City", "content": "form"}
/// ]
/// ```
///
/// `pattern` (route syntax, see ``RoutePattern``), `title` (looked up in the app's
/// translations) and `content` (`table`, `form` or `text`) are required; `public` (default
/// false) lets the page be opened from outside, as a deep link (and by the plugin itself
/// without a `navigate` permission). A pattern the app or an earlier plugin already has is
/// refused, naming both, and the plugin loads without that page.
public struct PluginRoute: Sendable, Hashable {
    /// What a contributed page shows.
    public enum Content: String, Sendable, CaseIterable {
        /// Rows the plugin serves by range, with live changes.
        case table
        /// Fields and buttons; the plugin answers the buttons.
        case form
        /// Plain text.
        case text
    }

    /// Parsed once, when the manifest is read.
    public var pattern: RoutePattern
    public var title: String
    public var content: Content
    public var isPublic: Bool

    public init(pattern: RoutePattern, title: String, content: Content, isPublic: Bool = false) {
        self.pattern = pattern
        self.title = title
        self.content = content
        self.isPublic = isPublic
    }

    /// The route as the manifest holds it.
    public var json: JSONValue {
        ["pattern": .string(pattern.text), "title": .string(title), "content": .string(content.rawValue), "public": .bool(isPublic)]
    }

    /// Reads the `routes` value of manifest `file`; every error names the key, as
    /// `routes[0].pattern`.
    static func list(json: JSONValue, file: String) throws(PluginManifestError) -> [PluginRoute] {
        var routes: [PluginRoute] = []
        for entry in try ManifestEntry.list(json, key: "routes", known: ["pattern", "title", "content", "public"], file: file) {
            let text = try entry.text("pattern") ?? ""
            let pattern: RoutePattern
            do { pattern = try RoutePattern(text) } catch {
                throw .invalidValue(file: file, key: "\(entry.path).pattern", reason: "\(error)")
            }
            guard !routes.contains(where: { $0.pattern.matchesSamePaths(as: pattern) }) else {
                throw .invalidValue(file: file, key: "\(entry.path).pattern", reason: "\(text.debugDescription) is listed twice")
            }
            let contentText = try entry.text("content") ?? ""
            guard let content = Content(rawValue: contentText) else {
                throw .invalidValue(file: file, key: "\(entry.path).content",
                                    reason: "\(contentText.debugDescription) is not one of \(Content.allCases.map(\.rawValue).joined(separator: ", "))")
            }
            var isPublic = false
            if let value = entry.object["public"], !value.isNull {
                guard let flag = value.boolValue else { throw .wrongType(file: file, key: "\(entry.path).public", expected: "true or false") }
                isPublic = flag
            }
            routes.append(PluginRoute(pattern: pattern, title: try entry.text("title") ?? "", content: content, isPublic: isPublic))
        }
        return routes
    }
}

extension RoutePattern {
    /// Whether both patterns match exactly the same paths: the same segments, parameters and
    /// splats compared without their names (`/a/:x` and `/a/:y`).
    public func matchesSamePaths(as other: RoutePattern) -> Bool {
        guard segments.count == other.segments.count else { return false }
        return zip(segments, other.segments).allSatisfy { mine, theirs in
            switch (mine, theirs) {
            case (.literal(let a), .literal(let b)): a == b
            case (.parameter, .parameter), (.splat, .splat): true
            default: false
            }
        }
    }
}
