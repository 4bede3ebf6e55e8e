import ArgumentParser
import Foundation

/// `firstframe`: the Trellis window with 1,000,000 rows to its first painted frame, against a
/// C program that fills a GtkStringList with the same rows. Whole processes, alternating runs,
/// medians of wall time and of peak RSS.
struct FirstFrameBenchmark: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "firstframe",
        abstract: "Time and memory to the first frame with 1,000,000 rows: Trellis vs a C GtkStringList."
    )

    @Option(help: "Rows in the list.") var rows = 1_000_000
    @Option(help: "Runs of each program (alternating).") var runs = 7

    func run() throws {
        try ProcessRunner.requireDisplay()
        let trellis = try ProcessRunner.sibling("trellis")
        let baseline = try ProcessRunner.buildBaseline("stringlist-window")
        let baselineEnvironment = ProcessRunner.guiEnvironment
        // A store and settings of the bench's own: the user's are never opened (nor written
        // in a newer model version by a newer build). The warm-up creates the store; the
        // measured runs open it.
        let home = FileManager.default.temporaryDirectory.appendingPathComponent("trellis-firstframe-\(getpid())")
        defer { try? FileManager.default.removeItem(at: home) }
        let env = baselineEnvironment.merging([
            "XDG_DATA_HOME": home.appendingPathComponent("data").path,
            "XDG_CONFIG_HOME": home.appendingPathComponent("config").path,
        ]) { _, new in new }
        // One warm-up of each so that disk caches and fontconfig caches are equal.
        _ = try ProcessRunner.measure(trellis, ["/catalog", "--rows", "\(rows)", "--exit-after-first-frame"], environment: env)
        _ = try ProcessRunner.measure(baseline, ["\(rows)"], environment: baselineEnvironment)
        var ours: [ProcessRunner.Measurement] = []
        var theirs: [ProcessRunner.Measurement] = []
        for _ in 0..<runs {
            ours.append(try ProcessRunner.measure(trellis, ["/catalog", "--rows", "\(rows)", "--exit-after-first-frame"], environment: env))
            theirs.append(try ProcessRunner.measure(baseline, ["\(rows)"], environment: baselineEnvironment))
        }
        let ourTime = Report.median(ours.map(\.seconds)) * 1000
        let theirTime = Report.median(theirs.map(\.seconds)) * 1000
        let ourRSS = Report.median(ours.map { Double($0.peakRSSKiB) }) / 1024
        let theirRSS = Report.median(theirs.map { Double($0.peakRSSKiB) }) / 1024
        Report.figure("firstframe-trellis", ourTime, "ms")
        Report.figure("firstframe-stringlist", theirTime, "ms")
        Report.figure("firstframe-mem-trellis", ourRSS, "MiB")
        Report.figure("firstframe-mem-stringlist", theirRSS, "MiB")
        Report.ratio("firstframe", theirTime / ourTime)
        Report.ratio("firstframe-mem", theirRSS / ourRSS)
    }
}
