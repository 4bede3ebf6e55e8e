#if canImport(Glibc)
import Glibc
#endif
import TrellisPluginABI

/// The entry point of a Swift plugin: checks the host's ABI, registers the plugin's services
/// and returns the plugin's info. No macro and no global state: the plugin exports the C entry
/// itself and forwards to `entry(_:services:)`.
///
/// ```swift
/// import TrellisPluginSDK
///
/// @_cdecl("clock_plugin_entry")   // a plugin's is "trellis_plugin_entry", the one symbol Trellis looks up
/// public func clockPluginEntry(_ host: UnsafePointer<trellis_host_api>?) -> UnsafePointer<trellis_plugin_info>? {
///     TrellisPlugin.entry(host, services: []) { host in host.log(.info, "the clock plugin is ready") }
/// }
/// ```
public enum TrellisPlugin {
    /// The ABI version the SDK implements (`TRELLIS_PLUGIN_ABI_VERSION`); a plugin's manifest
    /// declares it as `abiVersion` (`"abiVersion": 2`).
    ///
    /// ```swift
    /// host.log(.debug, "built for plugin ABI \(TrellisPlugin.abiVersion), loaded by ABI \(host.abiVersion)")
    /// ```
    public static let abiVersion = Int(TRELLIS_PLUGIN_ABI_VERSION)

    /// Registers `services` with `host` and returns the plugin's info: plugin-owned and kept for
    /// the life of the process (plugins are never unloaded). When the host is older than the
    /// SDK, nothing is registered and the info's `refusal` says why.
    ///
    /// `setUp`, when given, runs last with the host connection: serve the plugin's pages there
    /// (``PluginPages``), which live as long as the plugin.
    ///
    /// ```swift
    /// import TrellisPluginSDK
    ///
    /// final class Chime: PluginService {
    ///     static let name = "chime"
    ///     private let bus: PluginBus
    ///     init(host: TrellisHost) { bus = host.bus }
    ///     func start(options: JSONValue) throws { bus.trigger("chime:rang") }
    ///     func stop(options: JSONValue) {}
    /// }
    ///
    /// @_cdecl("chime_plugin_entry")   // a plugin's is "trellis_plugin_entry"
    /// public func chimePluginEntry(_ host: UnsafePointer<trellis_host_api>?) -> UnsafePointer<trellis_plugin_info>? {
    ///     TrellisPlugin.entry(host, services: [Chime.self], setUp: { host in
    ///         PluginPages(pluginID: "chime", host: host).text("/chime") { _ in "Rings on the hour" }
    ///     })
    /// }
    /// ```
    public static func entry(_ host: UnsafePointer<trellis_host_api>?, services: [any PluginService.Type],
                             setUp: ((TrellisHost) -> Void)? = nil) -> UnsafePointer<trellis_plugin_info>? {
        guard let host else { return info(refusal: "the host passed no function table") }
        let hostVersion = host.pointee.abi_version
        let hostSize = Int(host.pointee.struct_size)
        guard hostVersion >= TRELLIS_PLUGIN_ABI_VERSION, hostSize >= MemoryLayout<trellis_host_api>.size else {
            return info(refusal: "built for plugin ABI \(TRELLIS_PLUGIN_ABI_VERSION), but the host offers ABI \(hostVersion) (\(hostSize)-byte table); update Trellis")
        }
        let connection = TrellisHost(table: HostTable(api: host))
        for type in services {
            let slot = ServiceSlot(type: type, host: connection)
            let status = type.name.withCString { name in
                var definition = slot.definition(name: name)
                return connection.table.register(&definition)
            }
            if status != TRELLIS_OK {
                // The host records why and fails the plugin's load; registering more is pointless.
                return info(refusal: nil)
            }
        }
        setUp?(connection)
        return info(refusal: nil)
    }

    /// A new info, never freed: the host may read it at any time while the process runs.
    private static func info(refusal: String?) -> UnsafePointer<trellis_plugin_info> {
        let info = UnsafeMutablePointer<trellis_plugin_info>.allocate(capacity: 1)
        info.initialize(to: trellis_plugin_info(
            abi_version: UInt32(TRELLIS_PLUGIN_ABI_VERSION),
            struct_size: UInt32(MemoryLayout<trellis_plugin_info>.size),
            refusal: refusal.map { UnsafePointer(strdup($0)) }
        ))
        return UnsafePointer(info)
    }
}
