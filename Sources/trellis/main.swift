import ArgumentParser
import Foundation
import TrellisDemo
import TrellisGtk

struct Trellis: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "trellis",
        abstract: "The Trellis demo application: a plugin-based application shell for Linux.",
        version: "0.1.0"
    )

    @Option(name: .long, help: "Replace the catalog with N synthetic rows (\"row 0\", \"row 1\", …).")
    var rows: Int?

    @Flag(name: .long, help: "Quit right after the first frame is painted (tests, benchmarks).")
    var exitAfterFirstFrame = false

    @Flag(name: .long, help: ArgumentHelp("Read test commands from standard input.", visibility: .hidden))
    var automation = false

    func validate() throws {
        if let rows, rows < 0 { throw ValidationError("--rows must be 0 or more, not \(rows)") }
    }

    func run() throws {
        let status = MainActor.assumeIsolated { () -> Int32 in
            let app = DemoWindowApp(rows: rows, exitAfterFirstFrame: exitAfterFirstFrame, automation: automation)
            return app.run()
        }
        if status != 0 { throw ExitCode(status) }
    }
}

Trellis.main()
