import Foundation
import Logging
import TrellisCore
import TrellisPlugins

/// Where the examples of TrellisPlugins' doc comments are compiled: `.ci/doc-examples` makes
/// each ```swift block the body of an `async throws` method of this class, in
/// `Generated/Symbols_TrellisPlugins_*.swift`, so that an example reads as an app's code that
/// hosts plugins: `shell`, `bus`, `services`, `plugins` (its host) and the names below are the
/// app's. They are compiled, never run (TrellisPluginsTests runs plugins).
///
/// An example uses the names below as locals: its method begins with `let name = self.name`
/// for each it names (`.ci/doc-examples`), so its closures capture them as in an app's function.
@MainActor final class PluginsExample {
    /// The app's shell and what it hands a plugin host.
    let shell = Shell()
    var bus: EventBus { shell.bus }
    var services: ServiceRegistry { shell.services }
    let paths = PluginSearchPath.standard()
    let settings = PluginSettings()
    let logger = Logger(label: "org.example.Notes")
    /// The app's plugin host, and the routes of its plugins' pages.
    lazy var plugins = shell.pluginHost(searchPaths: paths, handleRequest: { _, _ in })
    /// The app's command-line options.
    let options = Options()
    /// Plugin folders named on the command line.
    let dirs: [String] = []
    /// A file the location plugin reads its track from.
    let trackPath = "/home/me/track.gpx"
    /// A plugin's folder, its manifest's file and its manifest.
    let folder = URL(fileURLWithPath: "/home/me/dev/Weather")
    var manifestURL: URL { folder.appendingPathComponent("plugin.json") }
    lazy var manifest = try! PluginManifest.load(from: manifestURL)
    /// A route of the plugin's manifest.
    var route: PluginRoute { manifest.routes[0] }
    /// The app's status bar.
    let status = StatusBar()
    /// The app's front controller, as its request handler sees it.
    let frontController = RequestHandler()

    /// Shows a problem (a stand-in for the app's own work).
    func report(_ problem: String) {}
    /// Shows a plugin's failure (a stand-in for a page's own work).
    func show(_ reason: String) {}

    struct Options {
        var pluginDirs: [String] = []
    }

    @MainActor final class StatusBar {
        func showPluginLines(_ lines: [String]) {}
    }

    final class RequestHandler: Sendable {
        func handle(_ command: String, _ parameters: JSONValue) {}
    }
}
