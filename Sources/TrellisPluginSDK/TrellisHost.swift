import TrellisShared
import TrellisPluginABI

/// A plugin's connection to the host that loaded it: the shared bus, navigation, front
/// controller requests and the host's log. Services receive it in `init(host:)`.
///
/// ```swift
/// host.bus.trigger("sync:done")
/// host.navigate("/notes/5")
/// host.handleRequest("refresh", ["source": "sync"])
/// host.log(.info, "synced 12 notes")
/// ```
public final class TrellisHost: Sendable {
    /// Severity of a message sent to the host's log (swift-log's levels); `TRELLIS_LOG_LEVEL`
    /// sets the lowest that the host writes.
    ///
    /// ```swift
    /// host.log(.warning, "no track file")
    /// host.log(.debug, "read 12 points")   // TRELLIS_LOG_LEVEL=debug trellis …
    /// ```
    public enum LogLevel: Int32, Sendable {
        case trace = 0, debug, info, notice, warning, error, critical
    }

    /// The host's event bus.
    ///
    /// ```swift
    /// host.bus.trigger("weather:ready")
    /// ```
    public let bus: PluginBus
    /// The ABI version of the host (`TRELLIS_PLUGIN_ABI_VERSION` of the Trellis that loaded the
    /// plugin): the SDK's, ``TrellisPlugin/abiVersion``, or newer.
    ///
    /// ```swift
    /// if host.abiVersion > TrellisPlugin.abiVersion { host.log(.debug, "a newer Trellis: ABI \(host.abiVersion)") }
    /// ```
    public var abiVersion: Int { table.abiVersion }
    let table: HostTable

    init(table: HostTable) {
        self.table = table
        self.bus = PluginBus(host: table)
    }

    /// Asks the host to navigate to `route` with `data`; the navigation happens later on the
    /// host's main thread.
    ///
    /// ```swift
    /// commands.on("today") { [host] _ in host.navigate("/weather/paris", ["day": "today"]) }
    /// ```
    public func navigate(_ route: String, _ data: JSONValue = .null) {
        report(table.navigate(route, data), "navigate to \(route)")
    }

    /// Sends `command` with `parameters` to the host's front controller; it is handled later.
    ///
    /// ```swift
    /// host.handleRequest("refresh", ["source": "weather"])
    /// ```
    public func handleRequest(_ command: String, _ parameters: JSONValue = .null) {
        report(table.handleRequest(command, parameters), "handle request \(command)")
    }

    /// The plugin's settings (its manifest's `"settings"`) with their values now: the user's, or
    /// the defaults. ``PluginCommands/onSettingsChanged(_:)`` hears of a change:
    ///
    /// ```swift
    /// let interval = host.settings["interval"]?.intValue ?? 5
    /// host.log(.info, "a reading every \(interval) min")
    /// commands.onSettingsChanged { [host] values, _ in
    ///     host.log(.info, "a reading every \(values["interval"]?.intValue ?? 5) min")
    /// }
    /// ```
    public var settings: JSONValue { table.settings() }

    /// Writes `message` to the host's log under the plugin's id.
    ///
    /// ```swift
    /// host.log(.info, "synced 12 notes")
    /// ```
    public func log(_ level: LogLevel, _ message: String) {
        table.log(level.rawValue, message)
    }

    private func report(_ status: Int32, _ what: String) {
        if status != TRELLIS_OK { log(.error, "the host refused to \(what) (status \(status))") }
    }
}
