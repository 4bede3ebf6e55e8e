import Foundation
import Testing
@testable import TrellisCore

@Suite("Plugin settings")
struct PluginSettingsTests {
    @Test("every plugin is enabled when there is no settings file")
    func defaults() throws {
        let sandbox = try PluginSandbox()
        let settings = PluginSettings(url: sandbox.settingsURL)
        try settings.load()
        #expect(settings.isEnabled("anything"))
    }

    @Test("a choice is written at once and read back by a new instance")
    func persisted() throws {
        let sandbox = try PluginSandbox()
        try PluginSettings(url: sandbox.settingsURL).setEnabled("location", false)
        let reread = PluginSettings(url: sandbox.settingsURL)
        try reread.load()
        #expect(!reread.isEnabled("location"))
        #expect(reread.disabledIDs == ["location"])
        try reread.setEnabled("location", true)
        #expect(try JSONValue(jsonData: Data(contentsOf: sandbox.settingsURL)) == ["disabled": []])
    }

    @Test("a malformed settings file is an error naming the file")
    func malformed() throws {
        let sandbox = try PluginSandbox()
        try FileManager.default.createDirectory(at: sandbox.settingsURL.deletingLastPathComponent(), withIntermediateDirectories: true)
        try Data(#"{"disabled": "location"}"#.utf8).write(to: sandbox.settingsURL)
        #expect(throws: PluginSettingsError.unreadable(file: sandbox.settingsURL.path,
                                                       reason: #"key "disabled" must be an array of plugin ids"#)) {
            try PluginSettings(url: sandbox.settingsURL).load()
        }
    }

    @Test("the default file is under XDG_CONFIG_HOME, or ~/.config")
    func defaultLocation() {
        #expect(PluginSettings.defaultURL(environment: ["XDG_CONFIG_HOME": "/cfg", "HOME": "/home/u"]).path == "/cfg/trellis/plugins.json")
        #expect(PluginSettings.defaultURL(environment: ["HOME": "/home/u"]).path == "/home/u/.config/trellis/plugins.json")
    }
}
