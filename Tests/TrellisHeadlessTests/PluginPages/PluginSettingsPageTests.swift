import Foundation
import Testing
import TrellisCore
import TrellisPlugins
import TrellisHeadless
import TrellisTesting

/// The Preferences page lists the plugins' settings with the right controls; a value that does
/// not fit is refused with the reason and nothing stored; a good one is stored and the plugin
/// (the Location plugin, through `get_settings`) uses it at its next update.
@MainActor
@Suite("Plugin settings page", .serialized)
struct PluginSettingsPageTests {
    @Test("the Location plugin's setting: shown, refused out of range, applied at once")
    func location() async throws {
        // Its own settings folder: the other tests, running meanwhile, keep the defaults.
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("trellis-settings-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: folder) }
        let (shell, screen) = try await Fixtures.demo(pluginSettings: PluginSettings(url: folder.appendingPathComponent("plugins.json")))
        let host = try #require(shell.resolve(PluginHost.self))
        try shell.navigate(to: "/settings")
        let page = screen.render()
        #expect(page.contains("## Location"), "\(page)")
        #expect(page.contains("Decimals of a position: ["), "\(page)")
        #expect(page.contains("Digits after the point in the status line and the history"), "\(page)")

        try screen.fill("location/decimals", with: "12")
        #expect(screen.render().contains("! Location — Decimals of a position: must be a whole number from 0 to 8"), "\(screen.render())")
        #expect(host.currentSettings(of: "location")?["decimals"] != 12)

        try screen.fill("location/decimals", with: "2")
        #expect(screen.page?.message == nil)
        #expect(host.currentSettings(of: "location")?["decimals"] == 2)
        let twoDecimals = /Location: -?\d+\.\d{2}, -?\d+\.\d{2} ±/
        #expect(await eventually { (screen.status ?? "").contains(twoDecimals) }, "\(screen.status ?? "no status")")
    }

    @Test("the Location plugin's source: a fixed position or a track chosen in Settings takes over at once; a bad one says why")
    func locationSource() async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("trellis-settings-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: folder) }
        let (shell, screen) = try await Fixtures.demo(pluginSettings: PluginSettings(url: folder.appendingPathComponent("plugins.json")))
        try shell.navigate(to: "/settings")
        let page = screen.render()
        for title in ["Positions from: ", "Update every (seconds): ", "Fixed position: ", "Track file: "] {
            #expect(page.contains(title), "\(title) in \(page)")
        }
        try screen.fill("location/position", with: "10.5, -20.25")
        try screen.fill("location/interval", with: "1")
        try screen.fill("location/source", with: "fixed")
        #expect(screen.page?.message == nil, "\(screen.render())")
        #expect(await eventually { screen.status?.contains("10.50000, -20.25000") == true }, "\(screen.status ?? "no status")")

        // A position that is none is refused on the page, naming the field and what it takes
        // (its kind is "position"); the plugin keeps the last good one.
        try screen.fill("location/position", with: "north of here")
        #expect(screen.page?.message?.contains("Location — Fixed position: must be a latitude from -90 to 90") == true, "\(screen.render())")
        #expect(screen.page?.message?.contains("location/") == false, "no raw id in \(screen.page?.message ?? "")")
        #expect(screen.status?.contains("10.50000, -20.25000") == true, "\(screen.status ?? "no status")")

        let track = folder.appendingPathComponent("track.json")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        try Data(#"{"points": [{"latitude": 7.25, "longitude": 8.5}]}"#.utf8).write(to: track)
        try screen.fill("location/track", with: track.path)
        try screen.fill("location/source", with: "track")
        #expect(await eventually { screen.status?.contains("7.25000, 8.50000") == true }, "\(screen.status ?? "no status")")
    }
}
