import Foundation
import TrellisCore
import TrellisPlugins

/// Starts the demo's services, all of them plugins (network activity, location, …), and shows
/// location updates in the window's status area (after the sync's state: see ``DemoStatus``).
@MainActor
public enum DemoServices {
    /// Starts the plugins from the standard places and `pluginDirectories`, and returns their
    /// reports once each has loaded or failed. `settings`: which plugins are off, and (beside its
    /// file) the plugins' own settings. `environment`: where the plugins keep their data (see
    /// `PluginHost`), the process's own by default.
    @discardableResult
    public static func start(on shell: Shell, pluginDirectories: [String], dataDirectory: URL,
                             settings: PluginSettings = PluginSettings(),
                             environment: [String: String] = ProcessEnvironment.current) async -> [PluginReport] {
        let host = makeHost(on: shell, pluginDirectories: pluginDirectories, settings: settings, environment: environment)
        discoverPlugins(host, dataDirectory: dataDirectory)
        finish(on: shell)
        await host.finishStartup()
        checkActivityService(on: shell)
        return host.reports
    }

    /// The first step of ``start(on:pluginDirectories:dataDirectory:settings:environment:)``: the shell's plugin
    /// host, and the watches that show location updates in the window's status area.
    public static func makeHost(on shell: Shell, pluginDirectories: [String], settings: PluginSettings = PluginSettings(),
                                environment: [String: String] = ProcessEnvironment.current) -> PluginHost {
        let host = shell.pluginHost(
            searchPaths: PluginSearchPath.standard(pluginDirectories: pluginDirectories), settings: settings,
            environment: environment,
            handleRequest: { [weak shell] command, parameters in
                Task { @MainActor in _ = shell?.controller.submit(command, parameters: parameters.objectValue ?? [:]) }
            })
        shell.provide(host)
        return host
    }

    /// The second step, on any thread (the window runs it while GTK starts): finds the plugins
    /// and reads their manifests, running none of their code, with `location` to be started
    /// on the demo's track; `PluginHost.finishStartup()` starts them (the window's, after its
    /// first frame).
    @discardableResult
    public nonisolated static func discoverPlugins(_ host: PluginHost, dataDirectory: URL) -> [PluginReport] {
        let track = dataDirectory.appendingPathComponent("track-demo.json").path
        return host.discover(serviceOptions: ["location": ["interval": 2, "track": .string(track)]])
    }

    /// The last step: the plugins' pages and status items join the app's. Then, once the
    /// plugins are loaded, ``checkActivityService(on:)``.
    public static func finish(on shell: Shell) {
        // The plugins' pages join the app's routes (after them: the app's own paths win), and
        // their commands and pages the primary menu.
        if let host = shell.resolve(PluginHost.self) {
            let pages = PluginPageRoutes(shell: shell, host: host)
            pages.registerRoutes()
            shell.contributeMenuItems(PluginMenu(host: host, pages: pages))
            // A plugin that fails (or waits for approval) is told in a notice, with a button to /plugins.
            let notices = PluginFailureNotices(shell: shell, host: host, pluginsPage: "/plugins")
            shell.provide(notices)
            notices.start()
        }
        // The plugins' status items (the location among them) join the status line.
        if let host = shell.resolve(PluginHost.self) {
            let lines = PluginStatusLines(host: host)
            shell.provide(lines)
            lines.start { [weak shell] lines in
                guard let shell else { return }
                DemoStatus.of(shell).showPluginLines(lines.map { tr("%@: %@", Localization.translate($0.item.title, plugin: $0.plugin), $0.text) })
            }
        }
    }

    /// Says in the log when no loaded plugin provides `net_state`, the service behind the
    /// activity indicator (which then stays hidden); the plugin's own failure, if it failed,
    /// is logged by the host.
    public static func checkActivityService(on shell: Shell) {
        if !shell.services.services.contains(where: { $0.name == NetworkActivity.serviceName }) {
            shell.logger.warning("no plugin provides '\(NetworkActivity.serviceName)': the network activity indicator stays hidden")
        }
    }
}
