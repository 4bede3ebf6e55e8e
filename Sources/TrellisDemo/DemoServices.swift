import Foundation
import TrellisCore

/// Starts the demo's services: the plugins (network activity, location, …) and, when the
/// network-activity plugin did not load, the built-in `net_state`; shows location updates in
/// the window's status area (after the sync's state: see ``DemoStatus``).
@MainActor
public enum DemoServices {
    /// Loads the plugins from the standard places and `pluginDirectories`, and returns their reports.
    @discardableResult
    public static func start(on shell: Shell, pluginDirectories: [String], dataDirectory: URL) -> [PluginReport] {
        let host = makeHost(on: shell, pluginDirectories: pluginDirectories)
        let reports = loadPlugins(host, dataDirectory: dataDirectory)
        finish(on: shell)
        return reports
    }

    /// The first step of ``start(on:pluginDirectories:dataDirectory:)``: the shell's plugin
    /// host, and the watches that show location updates in the window's status area.
    public static func makeHost(on shell: Shell, pluginDirectories: [String]) -> PluginHost {
        let host = shell.pluginHost(
            searchPaths: PluginSearchPath.standard(pluginDirectories: pluginDirectories),
            handleRequest: { [weak shell] command, parameters in
                Task { @MainActor in _ = shell?.controller.submit(command, parameters: parameters.objectValue ?? [:]) }
            })
        shell.provide(host)
        shell.bus.watchOnMainActor("location:update", owner: shell) { shell, event in
            DemoStatus.of(shell).showNews(LocationText.status(event.data))
        }
        shell.bus.watchOnMainActor("location:error", owner: shell) { shell, event in
            DemoStatus.of(shell).showNews(tr("Location unavailable: %@",
                                             event.data["reason"]?.stringValue ?? tr("unknown error")))
        }
        return host
    }

    /// The second step, on any thread (the window runs it while GTK starts): loads the
    /// plugins, starting `location` on the demo's track.
    public nonisolated static func loadPlugins(_ host: PluginHost, dataDirectory: URL) -> [PluginReport] {
        let track = dataDirectory.appendingPathComponent("track-demo.json").path
        return host.loadAll(serviceOptions: ["location": ["interval": 2, "track": .string(track)]])
    }

    /// The last step: when the network-activity plugin did not load, the built-in `net_state`.
    public static func finish(on shell: Shell) {
        if !shell.services.services.contains(where: { $0.name == NetworkActivityService.name }) {
            // The plugin supersedes the built-in service; without it the spinner still works.
            do {
                try shell.services.register(NetworkActivityService.name, owner: "demo") { NetworkActivityService() }
                try shell.services.start(NetworkActivityService.name)
            } catch {
                shell.logger.error("net_state could not start: \(error)")
            }
        }
    }
}

/// How a `location:update` reads in the status area.
enum LocationText {
    static func status(_ data: JSONValue) -> String {
        guard let latitude = data["latitude"]?.doubleValue, let longitude = data["longitude"]?.doubleValue else {
            return tr("Location: unknown")
        }
        let position = String(format: "%.5f, %.5f", latitude, longitude)
        guard let accuracy = data["accuracy"]?.doubleValue else { return tr("Location: %@", position) }
        return tr("Location: %@ ±%@ m", position, String(format: "%.0f", accuracy))
    }
}
