import TrellisPluginSDK

/// The plugin's page, `/template` in plugin.json's "routes": public, so `trellis /template`
/// opens it from outside, and without parameters, so the window's primary menu lists it. It
/// says the plugin's `message` setting, in capitals when its `capitals` setting is on: both
/// are edited on the window's Preferences.
enum TemplatePage {
    static func serve(on host: TrellisHost) {
        let pages = PluginPages(pluginID: "template", host: host)
        pages.text("/template") { _ in
            let message = host.settings["message"]?.stringValue ?? ""
            return host.settings["capitals"]?.boolValue == true ? message.uppercased() : message
        }
    }
}
