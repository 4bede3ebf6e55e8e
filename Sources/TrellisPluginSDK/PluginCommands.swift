/// The commands a plugin contributes (its manifest's `"commands"`), each with its handler, and
/// its settings' changes: the SDK's side of `<id>:command` and `<id>:settings`.
///
/// ```swift
/// let commands = PluginCommands(pluginID: "weather", host: host)
/// commands.on("refresh") { _ in fetchReadings() }
/// commands.on("share") { page in host.log(.info, "share \(page?.path ?? "")") }   // a pageActions command
/// commands.onSettingsChanged { values, changed in host.log(.info, "now \(values), changed \(changed)") }
/// ```
///
/// Handlers run on the thread that delivers the event (see ``PluginBus``).
public final class PluginCommands: Sendable {
    /// The page a `pageActions` command was pressed on:
    /// `commands.on("share") { page in share(page?.parameters["id"]) }` on `/notes/:id`.
    public struct Page: Sendable, Hashable {
        public let path: String
        public let parameters: [String: String]
    }

    private let pluginID: String
    private let bus: PluginBus
    private let handlers = LockedState<[String: @Sendable (Page?) -> Void]>([:])
    private let settingsHandlers = LockedState<[@Sendable (JSONValue, [String]) -> Void]>([])

    /// Handles the commands and settings of plugin `pluginID` (its manifest's id).
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
    public func on(_ id: String, _ handler: @escaping @Sendable (Page?) -> Void) {
        handlers.withLock { $0[id] = handler }
    }

    /// Runs `handler` with every value and the keys that changed, after each change of the
    /// plugin's settings (``TrellisHost/settings`` already answers the new values).
    public func onSettingsChanged(_ handler: @escaping @Sendable (JSONValue, [String]) -> Void) {
        settingsHandlers.withLock { $0.append(handler) }
    }
}
