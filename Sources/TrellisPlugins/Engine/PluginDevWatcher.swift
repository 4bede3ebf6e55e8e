import TrellisCore
import Foundation

/// Reloads a plugin under development when its library or its manifest changes
/// (`trellis --plugin-dev DIR`): a rebuild shows in the running app within a second, in a new
/// process, while the window stays where it is.
///
/// It looks at the plugin's `plugin.json` and library four times a second of the host's clock
/// (see `FileChangePoller`) and reloads through ``PluginHost/reload(_:)`` once both have stopped
/// changing.
///
/// ```swift
/// let watcher = PluginDevWatcher(host: plugins, directory: URL(fileURLWithPath: "/home/me/dev/Greeter"))
/// watcher.start()   // runs until stop() or the end of the process
/// ```
public final class PluginDevWatcher: Sendable {
    private let poller: FileChangePoller

    /// A watcher of the plugin in folder `directory` (the folder holding its `plugin.json`),
    /// which `host` found through a search path.
    public init(host: PluginHost, directory: URL, interval: Duration = .milliseconds(250)) {
        let path = directory.standardizedFileURL.path
        @Sendable func report() -> PluginReport? {
            host.reports.first { $0.directory.standardizedFileURL.path == path }
        }
        poller = FileChangePoller(interval: interval, clock: host.clock, files: {
            // The manifest, and the library wherever the host may take it from (beside the
            // manifest, or the newer of two builds), named as the manifest says now: the same
            // files whether the manifest was refused or accepted, so that a reload that makes it
            // known changes nothing watched (and reloads nothing again).
            let folder = URL(fileURLWithPath: path)
            let manifest = folder.appendingPathComponent(PluginManifest.fileName)
            let libraries = PluginManifest.declared(at: manifest).library.map { library in
                ["", ".build/release/", ".build/debug/"].map { folder.appendingPathComponent($0 + library) }
            } ?? []
            return [manifest] + libraries
        }, onChange: {
            if let id = report()?.id { await host.reload(id) }
        })
    }

    /// Starts watching, in a task of its own.
    public func start() { poller.start() }

    /// Stops watching (after the check in progress).
    public func stop() { poller.stop() }
}
