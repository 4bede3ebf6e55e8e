import Foundation
import Testing
@testable import TrellisPlugins
import TrellisCore

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

    @Test("a choice that cannot be written is an error naming the file, and changes nothing")
    func unwritable() throws {
        let sandbox = try PluginSandbox()
        // A regular file where the settings folder should be: the folder cannot be created.
        let blocker = sandbox.root.appendingPathComponent("not-a-folder")
        try Data("x".utf8).write(to: blocker)
        let settings = PluginSettings(url: blocker.appendingPathComponent("plugins.json"))
        #expect {
            try settings.setEnabled("location", false)
        } throws: { error in
            guard case PluginSettingsError.unwritable(let file, _) = error else { return false }
            return file == blocker.appendingPathComponent("plugins.json").path
        }
        #expect(settings.isEnabled("location"))
        #expect(settings.disabledIDs.isEmpty)
    }

    @Test("the default file is under XDG_CONFIG_HOME, or ~/.config")
    func defaultLocation() {
        #expect(PluginSettings.defaultURL(environment: ["XDG_CONFIG_HOME": "/cfg", "HOME": "/home/u"]).path == "/cfg/trellis/plugins.json")
        #expect(PluginSettings.defaultURL(environment: ["HOME": "/home/u"]).path == "/home/u/.config/trellis/plugins.json")
    }
}
