import ArgumentParser
import Foundation
import Logging
import TrellisCore
import TrellisPlugins

/// `trellis-bench plugins`: time to start one plugin, end to end — read its manifest, check its
/// folder and library, start its process, which opens the library and calls its entry, register
/// and start its service — over 20 copies of the CHello plugin (plain C: `plugin-spawn`) and of
/// the NetworkActivity plugin (a Swift plugin with its private copies of the SDK and
/// TrellisShared: `plugin-spawn-swift`). Each copy is a separate file under its own id; each
/// loads into a fresh bus and registry, as in a starting app.
struct PluginsBenchmark: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "plugins",
        abstract: "Start time per plugin over 20 copies of a C plugin and of a Swift plugin, each in its process; the process round trip, restart and pages."
    )

    @Option(help: "Copies of each plugin to load.")
    var copies = 20

    func run() throws {
        let spawn = try measure(folder: "CHello")
        Report.figure("plugin-spawn", Report.median(spawn), "ms")
        Report.figure("plugin-spawn-p90", Report.percentile(spawn, 0.9), "ms")
        let swift = try measure(folder: "NetworkActivity")
        Report.figure("plugin-spawn-swift", Report.median(swift), "ms")
        try PluginProcessBenchmark.run(library: try library(of: "CHello"))
        let swiftMemory = try PluginProcessBenchmark.residentMemory(library: try library(of: "NetworkActivity"))
        Report.figure("plugin-rss-swift", swiftMemory.plugin, "MiB")
        Report.figure("plugin-rss-swift-total", swiftMemory.total, "MiB")
        if ProcessEnvironment.current["DISPLAY"] != nil || ProcessEnvironment.current["WAYLAND_DISPLAY"] != nil {
            try PluginPageBenchmark.run()
            try PluginFloodBenchmark.run()
        } else {
            print("plugin-page-1m, plugin-flood-frame-gap: skipped (no display; run under xvfb-run)")
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

    /// Milliseconds to start each of `copies` copies of the plugin in `plugins/<folder>` (to
    /// ready: its entry has returned in its process and its services started).
    private func measure(folder: String) throws -> [Double] {
        var (manifest, library) = try library(of: folder)
        let libraryName = library.lastPathComponent
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("trellis-bench-plugins-\(getpid())-\(folder)")
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
                                  settings: PluginSettings(url: root.appendingPathComponent("settings.json")),
                                  navigate: { _ in }, handleRequest: { _, _ in }, logger: logger)
            var reports: [PluginReport] = []
            let seconds = Report.time { reports = Report.waitFor { await host.loadAll() } }
            guard let report = reports.first, report.state == .loaded else {
                throw BenchError.missing("a loadable plugin at \(copy.path): \(reports.map(\.description))")
            }
            milliseconds.append(seconds * 1000)
        }
        return milliseconds
    }
}
