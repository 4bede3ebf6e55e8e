/// The commands a plugin contributes (its manifest's `"commands"`), each with its handler, and
/// its settings' changes: the SDK's side of `<id>:command` and `<id>:settings`.
///
/// ```swift
/// let commands = PluginCommands(pluginID: "weather", host: host)
/// commands.on("refresh") { [bus] _ in bus.trigger("weather:refresh") }                  // a menu item
/// commands.on("share") { [host] page in host.log(.info, "share \(page?.path ?? "")") }   // a page action
/// commands.onSettingsChanged { [host] values, changed in host.log(.info, "now \(values), changed \(changed)") }
/// ```
///
/// Handlers run on the thread that delivers the event (see ``PluginBus``).
public final class PluginCommands: Sendable {
    /// The page a `pageActions` command was pressed on; nil for a command of the menu.
    ///
    /// ```swift
    /// commands.on("share") { [host] page in
    ///     guard let page else { return host.log(.info, "share from the menu") }
    ///     host.log(.info, "share note \(page.parameters["id"] ?? "?") from \(page.path)")   // on /notes/:id
    /// }
    /// ```
    public struct Page: Sendable, Hashable {
        /// The path of the page, such as `/notes/5`.
        ///
        /// ```swift
        /// commands.on("share") { [host] page in host.navigate("/share", ["from": .string(page?.path ?? "/")]) }
        /// ```
        public let path: String
        /// The page's route parameters and query, such as `["id": "5"]` on `/notes/:id`.
        ///
        /// ```swift
        /// commands.on("delete") { [bus] page in
        ///     if let id = page?.parameters["id"] { bus.trigger("notes:delete", ["id": .string(id)]) }
        /// }
        /// ```
        public let parameters: [String: String]
    }

    private let pluginID: String
    private let bus: PluginBus
    private let handlers = LockedState<[String: @Sendable (Page?) -> Void]>([:])
    private let settingsHandlers = LockedState<[@Sendable (JSONValue, [String]) -> Void]>([])

    /// Handles the commands and settings of plugin `pluginID` (its manifest's id). It lives as
    /// long as the plugin: the bus holds it.
    ///
    /// ```swift
    /// let commands = PluginCommands(pluginID: "weather", host: host)   // plugin.json: "id": "weather"
    /// commands.on("refresh") { [bus] _ in bus.trigger("weather:refresh") }
    /// ```
    public init(pluginID: String, host: TrellisHost) {
        self.pluginID = pluginID
        self.bus = host.bus
        bus.watch("\(pluginID):command", owner: self) { [self] event in
            guard let id = event.data["command"]?.stringValue, let handler = handlers.withLock({ $0[id] }) else { return }
            let page = event.data["path"]?.stringValue.map { path in
                Page(path: path, parameters: event.data["parameters"]?.objectValue?.compactMapValues(\.stringValue) ?? [:])
            }
            handler(page)
        }
        bus.watch("\(pluginID):settings", owner: self) { [self] event in
            let changed = event.data["changed"]?.arrayValue?.compactMap(\.stringValue) ?? []
            for handler in settingsHandlers.withLock({ $0 }) { handler(event.data["values"] ?? .object([:]), changed) }
        }
    }

    /// Runs `handler` when the user invokes command `id` (with the page, for a page action).
    /// A second handler for the same id replaces the first.
    ///
    /// ```swift
    /// // plugin.json: "commands": [{"id": "refresh", "title": "Refresh Weather", "accelerator": "<Control>r"}]
    /// commands.on("refresh") { [bus] _ in bus.trigger("weather:refresh") }
    /// ```
    public func on(_ id: String, _ handler: @escaping @Sendable (Page?) -> Void) {
        handlers.withLock { $0[id] = handler }
    }

    /// Runs `handler` with every value and the keys that changed, after each change of the
    /// plugin's settings (``TrellisHost/settings`` already answers the new values).
    ///
    /// ```swift
    /// commands.onSettingsChanged { [host] values, changed in
    ///     guard changed.contains("units") else { return }
    ///     host.log(.info, "units now \(values["units"]?.stringValue ?? "metric")")
    /// }
    /// ```
    public func onSettingsChanged(_ handler: @escaping @Sendable (JSONValue, [String]) -> Void) {
        settingsHandlers.withLock { $0.append(handler) }
    }
}
