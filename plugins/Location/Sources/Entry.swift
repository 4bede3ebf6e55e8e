import TrellisPluginSDK

/// The plugin's entry: registers `location` with the host and serves its history page.
@_cdecl("trellis_plugin_entry")
public func trellisPluginEntry(_ host: UnsafePointer<trellis_host_api>?) -> UnsafePointer<trellis_plugin_info>? {
    TrellisPlugin.entry(host, services: [LocationService.self], setUp: LocationHistoryPage.serve)
}
