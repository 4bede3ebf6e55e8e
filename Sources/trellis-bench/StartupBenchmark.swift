import ArgumentParser
import Foundation

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
    }
}
