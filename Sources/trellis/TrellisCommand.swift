import ArgumentParser
import Foundation
import Logging
import TrellisCore
import TrellisDemo
import TrellisHeadless

/// Options every way of running the demo shares.
struct ShellOptions: ParsableArguments {
    @Option(name: .long, help: "Replace the catalog with N synthetic rows (\"row 0\", \"row 1\", …).")
    var rows: Int?

    @Option(name: .long, help: ArgumentHelp("The SQLite database to use (default: $XDG_DATA_HOME/trellis/trellis.sqlite).", valueName: "path"))
    var database: String?

    @Option(name: .customLong("plugin-dir"), help: ArgumentHelp("Also look for plugins in DIR (repeatable).", valueName: "DIR"))
    var pluginDirectories: [String] = []

    func validate() throws {
        if let rows, rows < 0 { throw ValidationError("--rows must be 0 or more, not \(rows)") }
    }

    /// Builds the demo's shell: its routes, state and services.
    @MainActor
    func makeShell() throws -> Shell {
        LoggingSystem.bootstrap { label in
            var handler = StreamLogHandler.standardError(label: label)
            handler.logLevel = ProcessInfo.processInfo.environment["TRELLIS_LOG_LEVEL"].flatMap(Logger.Level.init(rawValue:)) ?? .notice
            return handler
        }
        let shell = Shell()
        let data = try Resources.dataDirectory()
        let catalog = try Resources.loadCatalog(from: data)
        let store = try DemoStore.open(at: database.map { URL(fileURLWithPath: $0) }, dataDirectory: data, bus: shell.bus)
        try DemoApp.install(on: shell, catalog: catalog, store: store, syntheticRows: rows)
        DemoServices.start(on: shell, pluginDirectories: pluginDirectories, dataDirectory: data)
        return shell
    }
}

@main
struct Trellis: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "trellis",
        abstract: "The Trellis demo application: a plugin-based application shell for Linux.",
        version: "0.1.0",
        subcommands: [Open.self, Routes.self, Plugins.self],
        defaultSubcommand: Open.self
    )

    /// Refuses arguments that are not UTF-8 (see ``InvalidArgumentEncoding``), then runs the command.
    static func main() {
        if let problem = InvalidArgumentEncoding.first() { exit(withError: problem) }
        main(nil)
    }
}

/// `trellis [PATH]`: opens the window (or, with `--headless`, prints the page as text).
struct Open: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "open",
        abstract: "Open the window at a route path (the default command)."
    )

    @Argument(help: "The route path to open, e.g. /catalog or /catalog/5. Only public routes may be opened from outside.")
    var path: String = "/catalog"

    @OptionGroup var shellOptions: ShellOptions

    @Flag(name: .long, help: "Print the page at PATH as text on standard output and exit, with no window.")
    var headless = false

    @Flag(name: .long, help: "Quit right after the first frame is painted (tests, benchmarks).")
    var exitAfterFirstFrame = false

    @Flag(name: .long, help: ArgumentHelp("Read test commands from standard input.", visibility: .hidden))
    var automation = false

    @Option(name: .long, help: ArgumentHelp("After the first frame, insert K rows one at a time, print the time to the frame showing them, and quit (benchmarks).", visibility: .hidden))
    var stressInserts: Int?

    func run() throws {
        if headless {
            try MainActor.assumeIsolated {
                let shell = try shellOptions.makeShell()
                let screen = HeadlessFrontend(shell: shell)
                try shell.navigate(to: "/")
                if path != "/" { try shell.navigate(to: path, external: true) }
                print(screen.render())
            }
            return
        }
        let status = try MainActor.assumeIsolated { () throws -> Int32 in
            let shell = try shellOptions.makeShell()
            shell.resolve(DemoModel.self)?.editableSyntheticRows = stressInserts != nil
            let app = DemoWindowApp(shell: shell, path: path, exitAfterFirstFrame: exitAfterFirstFrame,
                                    automation: automation, stressInserts: stressInserts)
            return app.run()
        }
        if status != 0 { throw ExitCode(status) }
    }
}

/// `trellis routes`: the route table.
struct Routes: ParsableCommand {
    static let configuration = CommandConfiguration(abstract: "Print the route table: pattern, target, owner.")

    @OptionGroup var shellOptions: ShellOptions

    func run() throws {
        try MainActor.assumeIsolated {
            let shell = try shellOptions.makeShell()
            print(RouteListing.table(shell.routes.entries))
        }
    }
}
