import ArgumentParser
import Foundation
import Logging
import TrellisCore
import TrellisPlugins

/// `trellis-bench plugins`: time to load one plugin, end to end — read its manifest, check its
/// folder and library, `dlopen`, call its entry, register and start its service — over 20
/// copies of the NetworkActivity plugin (a Swift plugin with its private copies of the SDK and TrellisShared)
/// and of the CHello plugin (plain C). Each copy is a separate file under its own id, because
/// `dlopen` of a file already loaded returns the cached image; each loads into a fresh bus and
/// registry, as in a starting app. Goal: `plugin-load` ≤ 5 ms.
struct PluginsBenchmark: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "plugins",
        abstract: "Load time per plugin over 20 copies of a Swift plugin and of a C plugin (goal: ≤ 5 ms)."
    )

    @Option(help: "Copies of each plugin to load.")
    var copies = 20

    func run() throws {
        let swift = try measure(folder: "NetworkActivity", isolation: .inProcess)
        Report.figure("plugin-load", Report.median(swift), "ms")
        Report.figure("plugin-load-p90", Report.percentile(swift, 0.9), "ms")
        Report.figure("plugin-load-max", swift.max() ?? 0, "ms")
        let c = try measure(folder: "CHello", isolation: .inProcess)
        Report.figure("plugin-load-c", Report.median(c), "ms")
        let spawn = try measure(folder: "CHello", isolation: .process)
        Report.figure("plugin-spawn", Report.median(spawn), "ms")
        try PluginProcessBenchmark.run(library: try library(of: "CHello"))
        let swiftMemory = try PluginProcessBenchmark.residentMemory(library: try library(of: "NetworkActivity"))
        Report.figure("plugin-rss-swift", swiftMemory.plugin, "MiB")
        Report.figure("plugin-rss-swift-total", swiftMemory.total, "MiB")
        if ProcessInfo.processInfo.environment["DISPLAY"] != nil || ProcessInfo.processInfo.environment["WAYLAND_DISPLAY"] != nil {
            try PluginPageBenchmark.run()
        } else {
            print("plugin-page-1m: skipped (no display; run under xvfb-run)")
        }
    }

    /// The built library of the plugin in `plugins/<folder>`, and its manifest.
    private func library(of folder: String) throws -> (manifest: JSONValue, library: URL) {
        let source = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
            .appendingPathComponent("../../plugins/\(folder)/plugin.json").standardizedFileURL
        let manifest = try JSONValue(jsonData: Data(contentsOf: source), source: source.path)
        let library = URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath()
            .deletingLastPathComponent().appendingPathComponent(manifest["library"]?.stringValue ?? "")
        guard FileManager.default.fileExists(atPath: library.path) else {
            throw BenchError.missing("\(library.path) — build it first: swift build -c release")
        }
        return (manifest, library)
    }

    /// Milliseconds to load each of `copies` copies of the plugin in `plugins/<folder>`, each
    /// running as `isolation` says (to ready: a process plugin's entry has returned in its
    /// process and its services started).
    private func measure(folder: String, isolation: PluginIsolation) throws -> [Double] {
        var (manifest, library) = try library(of: folder)
        let libraryName = library.lastPathComponent
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("trellis-bench-plugins-\(getpid())-\(folder)-\(isolation)")
        defer { try? FileManager.default.removeItem(at: root) }
        // A copy is renamed, but its code still speaks in the original's namespace (its pages'
        // messages): grant that namespace too, so the copies load as the original does.
        let namespace = "\(manifest["id"]?.stringValue ?? ""):*"
        var permissions = manifest["permissions"] ?? .object([:])
        for kind in ["trigger", "watch"] {
            permissions[kind] = .array((permissions[kind]?.arrayValue ?? []) + [.string(namespace)])
        }
        manifest["permissions"] = permissions
        var folders: [URL] = []
        for index in 1...copies {
            let id = "\(folder.lowercased())-\(index)"
            let copy = root.appendingPathComponent(id)
            try FileManager.default.createDirectory(at: copy, withIntermediateDirectories: true)
            manifest["id"] = .string(id)
            try manifest.jsonData().write(to: copy.appendingPathComponent("plugin.json"))
            try FileManager.default.copyItem(at: library, to: copy.appendingPathComponent(libraryName))
            folders.append(copy)
        }
        var logger = Logger(label: "trellis.bench.plugins")
        logger.logLevel = .error
        var milliseconds: [Double] = []
        for copy in folders {
            let bus = EventBus(logger: logger)
            let host = PluginHost(bus: bus, services: ServiceRegistry(bus: bus, logger: logger),
                                  searchPaths: [PluginSearchPath(directory: copy, origin: .commandLine)],
                                  settings: PluginSettings(url: root.appendingPathComponent("settings.json")), isolation: isolation,
                                  navigate: { _ in }, handleRequest: { _, _ in }, logger: logger)
            var reports: [PluginReport] = []
            let seconds = Report.time { reports = host.loadAll() }
            guard let report = reports.first, report.state == .loaded else {
                throw BenchError.missing("a loadable plugin at \(copy.path): \(reports.map(\.description))")
            }
            milliseconds.append(seconds * 1000)
        }
        return milliseconds
    }
}
