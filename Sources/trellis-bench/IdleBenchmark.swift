import ArgumentParser
import Foundation
import TrellisCore

/// `idle`: the processor the open window takes while nothing changes — the shell and every
/// process it started (the plugins', in their namespaces, included), their user and system
/// time read from `/proc` before and after `--seconds` of idling, as a percentage of one core.
/// Goal (issue #37) ≤ 0.1 %. The window opens on its home page with the shipped plugins in a
/// fresh home; `--settle` seconds of start-up (first frame, plugins loaded, the store opened)
/// are not counted. `idle-cpu` has the demo's location plugin disabled (`trellis plugins
/// --disable location`): it follows a track, a new position every 2 s, which the status line
/// shows; `idle-cpu-location` is the window with it.
struct IdleBenchmark: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "idle",
        abstract: "Processor time of the open window and its plugin processes while nothing changes."
    )

    @Option(help: "Seconds measured.") var seconds = 20.0
    @Option(help: "Seconds of start-up not counted.") var settle = 8.0

    func run() throws {
        try ProcessRunner.requireDisplay()
        let trellis = try ProcessRunner.sibling("trellis")
        let quiet = try measure(trellis, disabling: ["location"])
        Report.figure("idle-processes", Double(quiet.processes), "processes")
        Report.figure("idle-cpu", quiet.percent, "%")
        Report.figure("idle-cpu-location", try measure(trellis, disabling: []).percent, "%")
    }

    /// The window's processor use, in percent of a core, with `plugins` disabled, and how many
    /// processes it had.
    private func measure(_ trellis: String, disabling plugins: [String]) throws -> (percent: Double, processes: Int) {
        let home = FileManager.default.temporaryDirectory.appendingPathComponent("trellis-bench-idle-\(getpid())")
        try FileManager.default.createDirectory(at: home, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: home) }
        var environment = ProcessEnvironment.current.merging(ProcessRunner.guiEnvironment) { _, new in new }
        environment["HOME"] = home.path
        environment["XDG_DATA_HOME"] = home.appendingPathComponent("data").path
        environment["XDG_CONFIG_HOME"] = home.appendingPathComponent("config").path
        for plugin in plugins {
            _ = try ProcessRunner.measure(trellis, ["plugins", "--disable", plugin], environment: environment, capture: .output)
        }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: trellis)
        process.environment = environment
        process.standardError = FileHandle.nullDevice
        try process.run()
        defer {
            process.terminate()
            process.waitUntilExit()
        }
        Thread.sleep(forTimeInterval: settle)
        let before = Self.processorTicks(of: process.processIdentifier)
        Thread.sleep(forTimeInterval: seconds)
        let after = Self.processorTicks(of: process.processIdentifier)
        guard process.isRunning else { throw BenchError.missing("the window running for \(settle + seconds) s") }
        let ticksPerSecond = Double(sysconf(Int32(_SC_CLK_TCK)))
        return (Double(after.ticks - before.ticks) / ticksPerSecond / seconds * 100, after.processes)
    }

    /// User and system clock ticks of `root` and all its descendants now, and how many they are.
    static func processorTicks(of root: Int32) -> (ticks: Int, processes: Int) {
        var parents: [Int32: Int32] = [:]
        var ticks: [Int32: Int] = [:]
        for name in (try? FileManager.default.contentsOfDirectory(atPath: "/proc")) ?? [] {
            guard let pid = Int32(name),
                  let stat = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8),
                  let end = stat.lastIndex(of: ")") else { continue }
            // After the command's closing parenthesis: state, ppid, …; utime and stime are the
            // 12th and 13th fields from there.
            let fields = stat[stat.index(after: end)...].split(separator: " ")
            guard fields.count > 13, let parent = Int32(fields[1]), let user = Int(fields[11]), let system = Int(fields[12]) else { continue }
            parents[pid] = parent
            ticks[pid] = user + system
        }
        var total = 0, count = 0
        for pid in ticks.keys {
            var current: Int32? = pid
            while let step = current, step != root, step > 1 { current = parents[step] }
            if current == root {
                total += ticks[pid] ?? 0
                count += 1
            }
        }
        return (total, count)
    }
}
