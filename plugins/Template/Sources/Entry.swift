import TrellisPluginSDK

/// The one C symbol the host looks up: registers the plugin's services, then serves its page.
@_cdecl("trellis_plugin_entry")
public func trellisPluginEntry(_ host: UnsafePointer<trellis_host_api>?) -> UnsafePointer<trellis_plugin_info>? {
    TrellisPlugin.entry(host, services: [TemplateService.self], setUp: TemplatePage.serve)
}
