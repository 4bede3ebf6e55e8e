import TrellisPluginSDK

/// The plugin's entry: registers `net_state` with the host and serves its page of requests.
@_cdecl("trellis_plugin_entry")
public func trellisPluginEntry(_ host: UnsafePointer<trellis_host_api>?) -> UnsafePointer<trellis_plugin_info>? {
    TrellisPlugin.entry(host, services: [NetworkActivityService.self], setUp: RecentRequestsPage.serve)
}
