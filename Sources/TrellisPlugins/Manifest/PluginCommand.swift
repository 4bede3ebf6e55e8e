import TrellisCore

/// A command a plugin contributes in its manifest (`"commands"`), read without loading the
/// plugin's code: the window shows it in its primary menu, with its keyboard shortcut, and
/// invoking it triggers `<plugin id>:command` with `{"command": id}` on the bus, which the
/// plugin watches (its own namespace needs no permission):
///
/// ```json
/// "commands": [
///   {"id": "greet", "title": "Say Hello", "accelerator": "<Control><Shift>h"}
/// ]
/// ```
///
/// `id` (letters, digits, `.`, `_`, `-`) and `title` are required; `accelerator` is in GTK's
/// syntax (`<Control>`, `<Shift>`, `<Alt>`, `<Super>` and a key name); `placement` is
/// `"primaryMenu"` (the default) or `"pageActions"`, a button in the header bar of the pages of
/// `routes` (route patterns, the app's or the plugin's own), such as
/// `{"id": "share", "title": "Share", "placement": "pageActions", "routes": ["/notes/:id"]}`;
/// pressed, the plugin receives the page too: `{"command": id, "path": "/notes/5",
/// "parameters": {"id": "5"}}`. A page action has no accelerator.
public struct PluginCommand: Sendable, Hashable {
    /// Where a command is shown.
    public enum Placement: String, Sendable, CaseIterable {
        case primaryMenu
        case pageActions
    }

    public var id: String
    public var title: String
    public var accelerator: String?
    public var placement: Placement
    /// The route patterns on whose pages a `pageActions` command shows (empty otherwise),
    /// parsed once, when the manifest is read.
    public var routes: [RoutePattern]

    public init(id: String, title: String, accelerator: String? = nil, placement: Placement = .primaryMenu, routes: [RoutePattern] = []) {
        self.id = id
        self.title = title
        self.accelerator = accelerator
        self.placement = placement
        self.routes = routes
    }

    /// The command as the manifest holds it.
    public var json: JSONValue {
        var members: [String: JSONValue] = ["id": .string(id), "title": .string(title), "placement": .string(placement.rawValue)]
        if let accelerator { members["accelerator"] = .string(accelerator) }
        if !routes.isEmpty { members["routes"] = .array(routes.map { .string($0.text) }) }
        return .object(members)
    }

    /// The accelerator in one spelling, to compare two: modifiers sorted and lowercased
    /// (`<Primary>` and `<Ctrl>` are `<control>`), then the key, lowercased.
    public static func normalized(_ accelerator: String) -> String {
        var modifiers: [String] = []
        var rest = Substring(accelerator)
        while rest.hasPrefix("<"), let end = rest.firstIndex(of: ">") {
            var modifier = rest[rest.index(after: rest.startIndex)..<end].lowercased()
            if modifier == "primary" || modifier == "ctrl" || modifier == "control_l" { modifier = "control" }
            modifiers.append(modifier)
            rest = rest[rest.index(after: end)...]
        }
        return modifiers.sorted().map { "<\($0)>" }.joined() + rest.lowercased()
    }

    /// Reads the `commands` value of manifest `file`; every error names the key, as
    /// `commands[1].title`.
    static func list(json: JSONValue, file: String) throws(PluginManifestError) -> [PluginCommand] {
        var commands: [PluginCommand] = []
        for entry in try ManifestEntry.list(json, key: "commands", known: ["id", "title", "accelerator", "placement", "routes"], file: file) {
            let id = try entry.id(existing: commands.map(\.id))
            let placementText = try entry.text("placement", required: false) ?? Placement.primaryMenu.rawValue
            guard let placement = Placement(rawValue: placementText) else {
                throw .invalidValue(file: file, key: "\(entry.path).placement", reason: "\(placementText.debugDescription) is not \"primaryMenu\" or \"pageActions\"")
            }
            let accelerator = try entry.text("accelerator", required: false)
            var routes: [RoutePattern] = []
            if placement == .pageActions {
                guard let array = entry.object["routes"]?.arrayValue, !array.isEmpty else {
                    throw .wrongType(file: file, key: "\(entry.path).routes", expected: "a non-empty array of route patterns (for pageActions)")
                }
                for (index, element) in array.enumerated() {
                    guard let text = element.stringValue, let pattern = try? RoutePattern(text) else {
                        throw .invalidValue(file: file, key: "\(entry.path).routes[\(index)]", reason: "\(element) is not a route pattern")
                    }
                    routes.append(pattern)
                }
                guard accelerator == nil else {
                    throw .invalidValue(file: file, key: "\(entry.path).accelerator", reason: "a page action has no accelerator (only primaryMenu commands)")
                }
            } else if entry.object["routes"] != nil {
                throw .invalidValue(file: file, key: "\(entry.path).routes", reason: "only a pageActions command has routes")
            }
            commands.append(PluginCommand(id: id, title: try entry.text("title") ?? "", accelerator: accelerator,
                                          placement: placement, routes: routes))
        }
        return commands
    }
}
