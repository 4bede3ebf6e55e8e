import TrellisPluginSDK

/// The plugin's page, `/template` in plugin.json's "routes": public, so `trellis /template`
/// opens it from outside, and without parameters, so the window's primary menu lists it. It
/// says the plugin's `message` setting, which the window's Preferences edit.
enum TemplatePage {
    static func serve(on host: TrellisHost) {
        let pages = PluginPages(pluginID: "template", host: host)
        pages.text("/template") { _ in host.settings["message"]?.stringValue ?? "" }
    }
}
