import Foundation
import TrellisCore
import TrellisPlugins
import TrellisDemo
import TrellisHeadless
import TrellisTesting

/// The repository's `data/` folder and the demo shell built on it, for headless tests.
@MainActor
enum Fixtures {
    static let dataDirectory = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().appendingPathComponent("../../../data").standardizedFileURL

    static func catalog() throws -> [String] { try Resources.loadCatalog(from: dataDirectory) }

    /// A new store file in a temporary folder (removed with the test process's others:
    /// ``TestFolder``; the store creates the folder).
    static func temporaryStoreURL() -> URL {
        TestFolder.root.appendingPathComponent("store-\(UUID().uuidString)/trellis.sqlite")
    }

    /// A demo shell with a headless front end, at `/`, on a new store (or the one at `storeURL`).
    /// `pluginSettings`: where the plugins' settings live (by default new ones, in the test's
    /// own folders, where its plugins keep their data too: nothing of the user's is read or written).
    static func demo(storeURL: URL = temporaryStoreURL(), pluginSettings: PluginSettings? = nil) async throws -> (Shell, HeadlessFrontend) {
        let environment = try TestFolder.environment("demo")
        let pluginSettings = pluginSettings ?? PluginSettings(url: PluginSettings.defaultURL(environment: environment))
        let shell = Shell()
        // Notices stay until the test looks: with the suites running in parallel on the main
        // actor, eight seconds can pass between a delete and the test reading its notice.
        shell.notices.defaultDuration = .seconds(3_600)
        let store = try DemoStore.open(at: storeURL, dataDirectory: dataDirectory, bus: shell.bus)
        try DemoApp.install(on: shell, catalog: catalog(), store: store)
        await DemoServices.start(on: shell, pluginDirectories: [], dataDirectory: dataDirectory, settings: pluginSettings,
                                 environment: environment)
        let screen = HeadlessFrontend(shell: shell)
        try shell.navigate(to: "/")
        return (shell, screen)
    }
}
