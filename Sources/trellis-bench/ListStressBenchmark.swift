import ArgumentParser
import Foundation
import TrellisCore

/// `liststress`: 10,000 single-row inserts into a 1,000,000-row list shown in the window, each
/// announced to GTK as its own `items-changed`, timed to the frame that shows them — Trellis's
/// table source and virtual model against a C `GtkStringList` doing the same splices.
struct ListStressBenchmark: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "liststress",
        abstract: "Time for 10,000 single-row inserts into a 1,000,000-row list in the window: Trellis vs GtkStringList."
    )

    @Option(help: "Rows in the list.") var rows = 1_000_000
    @Option(help: "Rows inserted one at a time.") var inserts = 10_000
    @Option(help: "Runs of each program (alternating).") var runs = 5

    func run() throws {
        try ProcessRunner.requireDisplay()
        let bench = ProcessRunner.currentExecutable
        let baseline = try ProcessRunner.buildBaseline("stringlist-window")
        var ours: [Double] = []
        var theirs: [Double] = []
        for _ in 0..<runs {
            ours.append(try Self.reported(bench, ["liststress-window", "\(rows)", "\(inserts)"]))
            theirs.append(try Self.reported(baseline, ["\(rows)", "\(inserts)"]))
        }
        let ourTime = Report.median(ours)
        let theirTime = Report.median(theirs)
        Report.figure("liststress-trellis", ourTime, "ms")
        Report.figure("liststress-stringlist", theirTime, "ms")
        Report.ratio("liststress", theirTime / ourTime)
    }

    /// Runs a program that prints `liststress: VALUE ms` and returns VALUE.
    static func reported(_ path: String, _ arguments: [String]) throws -> Double {
        let process = Process()
        let output = Pipe()
        process.executableURL = URL(fileURLWithPath: path)
        process.arguments = arguments
        process.environment = ProcessEnvironment.current.merging(ProcessRunner.guiEnvironment) { _, new in new }
        process.standardOutput = output
        try process.run()
        let data = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        let text = String(decoding: data, as: UTF8.self)
        guard process.terminationStatus == 0,
              let line = text.split(separator: "\n").first(where: { $0.hasPrefix("liststress: ") }),
              let value = Double(line.dropFirst("liststress: ".count).split(separator: " ").first ?? "") else {
            throw ProcessRunner.Failure.exit(path: path, status: process.terminationStatus)
        }
        return value
    }
}
