import TrellisCore
import TrellisPlugins
import TrellisPluginABI

/// The `trellis_host_api` table a plugin gets in a plugin process: the same layout and rules
/// as in the shell, each function forwarding to ``processHost``.
enum PluginProcessHostTable {
    /// The table, allocated once and never freed: the plugin may keep the pointer for the
    /// life of the process. Its `context` is unused (one plugin per process): NULL.
    static func make() -> UnsafePointer<trellis_host_api> {
        let table = UnsafeMutablePointer<trellis_host_api>.allocate(capacity: 1)
        table.initialize(to: trellis_host_api(
            abi_version: UInt32(TRELLIS_PLUGIN_ABI_VERSION),
            struct_size: UInt32(MemoryLayout<trellis_host_api>.size),
            watch: { _, pattern, handler, userData, release in
                // Owns user_data from here on: released when the watch ends, or at once if refused.
                let callback = EventCallback(handler: handler, userData: userData, release: release)
                guard let pattern, handler != nil, let text = String(validatingCString: pattern), !text.isEmpty else { return 0 }
                return processHost.watch(text, callback)
            },
            unwatch: { _, watch in processHost.unwatch(watch) },
            trigger: { _, message, data in processHost.forward(.trigger, "trigger", message, data) },
            register_service: { _, definition in processHost.register(definition) },
            navigate: { _, route, data in processHost.forward(.navigate, "navigate", route, data) },
            handle_request: { _, command, parameters in processHost.forward(.request, "handle_request", command, parameters) },
            log: { _, level, message in
                guard let message else { return }
                processHost.log(level, String(cString: message))
            },
            context: nil,
            get_settings: { _, buffer, size in
                HostAPITable.copy(processHost.settings.jsonString, to: buffer, size: size)
            }
        ))
        return UnsafePointer(table)
    }
}
