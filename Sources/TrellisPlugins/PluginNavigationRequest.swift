import TrellisCore

/// A plugin's request to open a route, as the plugin host's `navigate` closure receives it,
/// on the plugin's thread (hop to the main actor to drive the navigator).
public struct PluginNavigationRequest: Sendable, Equatable {
    /// The plugin that asked.
    public let plugin: String
    /// The path, with any query string.
    public let path: String
    /// The data passed with it.
    public let data: JSONValue
    /// True when a `navigate` permission of the plugin covers the path: open it even if its
    /// route is not public (`external: false`). False: public routes only (`external: true`),
    /// as for a deep link.
    public let isGranted: Bool

    public init(plugin: String, path: String, data: JSONValue, isGranted: Bool) {
        self.plugin = plugin
        self.path = path
        self.data = data
        self.isGranted = isGranted
    }

    /// Whether the navigator should treat it as a link from outside (public routes only).
    public var isExternal: Bool { !isGranted }
}
