import ArgumentParser
import Foundation
import TrellisCore

/// `startup`: the full demo (database opened, home page shown) to its first frame, against a
/// bare C GTK 4 window (`Baselines/empty-window.c`) to its first frame. Opening on its home
/// page, the demo reads its plugins' manifests and loads them just after that frame (see
/// "Activation" in WritingAPlugin.md), and `--exit-after-first-frame` quits before it does:
/// what installed plugins cost the frame is what remains of them before it.
///
/// Method: the bench reads `CLOCK_MONOTONIC` just before it spawns each program; each program
/// reads the same clock in its window's first frame-clock `after-paint` (the moment
/// `--exit-after-first-frame` quits after) and prints it (``FirstFrameRun``); the difference is
/// its time to first frame. Both then quit, and the time to their exit — teardown included,
/// such as SQLite's checkpoint of a new store — is reported too, as `…-to-exit`. Alternating
/// runs, medians; each Trellis run gets a fresh data folder, so it creates its store as on a
/// first launch.
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
        func compare(_ name: String, _ arguments: [String], firstRun: Int) throws {
            var ours: [FirstFrameRun] = []
            var theirs: [FirstFrameRun] = []
            for run in 0..<runs {
                ours.append(try FirstFrameRun.measure(trellis, arguments, environment: trellisEnvironment(firstRun + run)))
                theirs.append(try FirstFrameRun.measure(baseline, [], environment: ProcessRunner.guiEnvironment))
            }
            Self.report(name, ours: ours, baseline: theirs)
        }
        _ = try FirstFrameRun.measure(trellis, ["/", "--exit-after-first-frame"], environment: trellisEnvironment(-1))
        _ = try FirstFrameRun.measure(baseline, [], environment: ProcessRunner.guiEnvironment)
        try compare("startup", ["/", "--exit-after-first-frame"], firstRun: 0)

        // The same with 50 more plugins installed, each waiting for its command (lazy
        // activation): their manifests are read just after the first frame.
        let plugins = try Self.lazyPlugins(50, in: home.appendingPathComponent("plugins"))
        try compare("startup-50-plugins", ["/", "--exit-after-first-frame", "--plugin-dir", plugins.path], firstRun: 100)
    }

    /// Medians to the first frame (the ratio the goal is about), then to the exit.
    static func report(_ name: String, ours: [FirstFrameRun], baseline: [FirstFrameRun]) {
        let ourFrame = Report.median(ours.map(\.toFirstFrame)) * 1000
        let theirFrame = Report.median(baseline.map(\.toFirstFrame)) * 1000
        let ourExit = Report.median(ours.map(\.toExit)) * 1000
        let theirExit = Report.median(baseline.map(\.toExit)) * 1000
        Report.figure("\(name)-trellis", ourFrame, "ms")
        Report.figure("\(name)-empty-window", theirFrame, "ms")
        Report.ratio(name, theirFrame / ourFrame)
        Report.figure("\(name)-trellis-to-exit", ourExit, "ms")
        Report.figure("\(name)-empty-window-to-exit", theirExit, "ms")
        Report.ratio("\(name)-to-exit", theirExit / ourExit)
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
