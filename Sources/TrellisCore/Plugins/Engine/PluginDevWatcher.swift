import Foundation

/// Reloads a plugin under development when its library or its manifest changes
/// (`trellis --plugin-dev DIR`): a rebuild shows in the running app within a second, in a new
/// process, while the window stays where it is.
///
/// It looks at the modification time and size of the plugin's `plugin.json` and library four
/// times a second, on a thread of its own, and reloads once both have stopped changing (a
/// linker writes the library in several steps), through ``PluginHost/reload(_:)``.
///
/// ```swift
/// let watcher = PluginDevWatcher(host: plugins, directory: URL(fileURLWithPath: "~/dev/Greeter"))
/// watcher.start()   // runs until stop() or the end of the process
/// ```
public final class PluginDevWatcher: Sendable {
    private let host: PluginHost
    private let directory: URL
    /// The folder's path, standardized: compared with the reports' folders.
    private let path: String
    private let interval: Double
    private let running = LockedState(false)

    /// A watcher of the plugin in folder `directory` (the folder holding its `plugin.json`),
    /// which `host` found through a search path.
    public init(host: PluginHost, directory: URL, interval: Duration = .milliseconds(250)) {
        self.host = host
        self.directory = directory.standardizedFileURL
        self.path = directory.standardizedFileURL.path
        self.interval = PluginDeadlines.seconds(interval)
    }

    /// Starts watching, on a thread of its own.
    public func start() {
        guard running.withLock({ state in defer { state = true }; return !state }) else { return }
        Thread.detachNewThread { [self] in watch() }
    }

    /// Stops watching (after the check in progress).
    public func stop() {
        running.withLock { $0 = false }
    }

    /// What is watched, as it is now: the manifest's and the library's time and size.
    private func signature() -> [String]? {
        guard let report = host.reports.first(where: { $0.directory.standardizedFileURL.path == path }) else { return nil }
        // A library not found yet is looked for where the host would find it once built.
        let libraries = report.library.map { [$0] } ?? report.manifest.map { manifest in
            ["", ".build/release/", ".build/debug/"].map { directory.appendingPathComponent($0 + manifest.library) }
        } ?? []
        let files = [directory.appendingPathComponent(PluginManifest.fileName)] + libraries
        return files.map { file in
            let attributes = try? FileManager.default.attributesOfItem(atPath: file.path)
            let time = (attributes?[.modificationDate] as? Date)?.timeIntervalSince1970 ?? 0
            return "\(file.path) \(time) \(attributes?[.size] as? Int ?? -1)"
        }
    }

    private func watch() {
        var loaded = signature()
        var previous = loaded
        while running.withLock({ $0 }) {
            Thread.sleep(forTimeInterval: interval)
            let now = signature()
            defer { previous = now }
            // Reload once the files changed since the last load and held still for one look.
            guard let now, now != loaded, now == previous,
                  let id = host.reports.first(where: { $0.directory.standardizedFileURL.path == path })?.id else { continue }
            host.reload(id)
            loaded = signature()
        }
    }
}
