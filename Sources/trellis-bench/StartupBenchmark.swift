import ArgumentParser
import Foundation
import TrellisCore

/// `startup`: the full demo (database opened, plugins loaded, home page shown) to its first
/// frame, against a bare C GTK 4 window to its first frame. Whole processes, alternating runs,
/// medians; each Trellis run gets a fresh data folder, so it creates its store as on a first
/// launch.
struct StartupBenchmark: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "startup",
        abstract: "Time to first frame: the full demo vs a bare C GTK 4 window."
    )

    @Option(help: "Runs of each program (alternating).") var runs = 9

    func run() throws {
        try ProcessRunner.requireDisplay()
        let trellis = try ProcessRunner.sibling("trellis")
        let baseline = try ProcessRunner.buildBaseline("empty-window")
        let home = FileManager.default.temporaryDirectory.appendingPathComponent("trellis-startup-\(getpid())")
        defer { try? FileManager.default.removeItem(at: home) }
        func trellisEnvironment(_ run: Int) -> [String: String] {
            ProcessRunner.guiEnvironment.merging([
                "XDG_DATA_HOME": home.appendingPathComponent("data-\(run)").path,
                "XDG_CONFIG_HOME": home.appendingPathComponent("config").path,
            ]) { _, new in new }
        }
        _ = try ProcessRunner.measure(trellis, ["/", "--exit-after-first-frame"], environment: trellisEnvironment(-1))
        _ = try ProcessRunner.measure(baseline, [], environment: ProcessRunner.guiEnvironment)
        var ours: [Double] = []
        var theirs: [Double] = []
        for run in 0..<runs {
            ours.append(try ProcessRunner.measure(trellis, ["/", "--exit-after-first-frame"], environment: trellisEnvironment(run)).seconds)
            theirs.append(try ProcessRunner.measure(baseline, [], environment: ProcessRunner.guiEnvironment).seconds)
        }
        let ourTime = Report.median(ours) * 1000
        let theirTime = Report.median(theirs) * 1000
        Report.figure("startup-trellis", ourTime, "ms")
        Report.figure("startup-empty-window", theirTime, "ms")
        Report.ratio("startup", theirTime / ourTime)

        // The same with 50 more plugins installed, each waiting for its command (lazy
        // activation): only their manifests are read at start.
        let plugins = try Self.lazyPlugins(50, in: home.appendingPathComponent("plugins"))
        var withPlugins: [Double] = []
        var bare: [Double] = []
        for run in 0..<runs {
            withPlugins.append(try ProcessRunner.measure(trellis, ["/", "--exit-after-first-frame", "--plugin-dir", plugins.path],
                                                         environment: trellisEnvironment(100 + run)).seconds)
            bare.append(try ProcessRunner.measure(baseline, [], environment: ProcessRunner.guiEnvironment).seconds)
        }
        let fiftyTime = Report.median(withPlugins) * 1000
        Report.figure("startup-50-plugins-trellis", fiftyTime, "ms")
        Report.ratio("startup-50-plugins", Report.median(bare) * 1000 / fiftyTime)
    }

    /// `count` copies of the CHello plugin's manifest and library under their own ids, each
    /// activated only by its command (no routes or accelerators, which would clash).
    static func lazyPlugins(_ count: Int, in root: URL) throws -> URL {
        let source = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
            .appendingPathComponent("../../plugins/CHello/plugin.json").standardizedFileURL
        var manifest = try JSONValue(jsonData: Data(contentsOf: source), source: source.path)
        let library = URL(fileURLWithPath: try ProcessRunner.sibling(manifest["library"]?.stringValue ?? ""))
        manifest["routes"] = nil
        manifest["autostart"] = .object([:])
        manifest["commands"] = [["id": "greet", "title": "Say Hello"]]
        manifest["activation"] = ["onCommand:greet"]
        for index in 1...count {
            let folder = root.appendingPathComponent("lazy-\(index)")
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            manifest["id"] = .string("lazy-\(index)")
            manifest["name"] = .string("Lazy \(index)")
            try manifest.jsonData().write(to: folder.appendingPathComponent("plugin.json"))
            try? FileManager.default.removeItem(at: folder.appendingPathComponent(library.lastPathComponent))
            try FileManager.default.copyItem(at: library, to: folder.appendingPathComponent(library.lastPathComponent))
        }
        return root
    }
}
