import ArgumentParser
import Foundation
import TrellisCore
import TrellisDemo
import TrellisSync

/// `trellis sync`: one pass with the notes server, then what it sent, received and still
/// holds; exits 1 when the pass failed (the changes stay queued for the next one).
struct SyncNotes: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "sync",
        abstract: "Sync the notes with the server once: print what was sent, received and is still queued."
    )

    @Option(name: .long, help: ArgumentHelp("The SQLite database to use (default: $XDG_DATA_HOME/trellis/trellis.sqlite).", valueName: "path"))
    var database: String?

    @Option(name: .long, help: ArgumentHelp("The server (default: sync.server in the settings file).", valueName: "URL"))
    var server: String?

    func validate() throws {
        if server != nil, serverURL == nil { throw ValidationError("--server needs an absolute http(s) URL, not \(server ?? "")") }
    }

    private var serverURL: URL? { server.flatMap(ShellOptions.serverURL(from:)) }

    func run() throws {
        ShellOptions.bootstrapLogging(.warning)
        let (database, server) = (database, serverURL)
        try runOnMainActor {
            let shell = Shell()
            let data = try Resources.dataDirectory()
            let store = try DemoStore.open(at: database.map { URL(fileURLWithPath: $0) }, dataDirectory: data, bus: shell.bus)
            guard let sync = try DemoSync.start(on: shell, store: store, server: server, background: false) else {
                throw NoServer(settingsFile: DemoSync.settingsURL().path)
            }
            let report = try await sync.syncNow()
            print(try SyncSummary.text(report, of: sync, store: store))
            if let failure = report.failure { throw SyncSummary.Failure(error: failure, pending: report.pending) }
        }
    }
}

/// `trellis sync` without a server to sync with.
struct NoServer: Error, CustomStringConvertible {
    let settingsFile: String
    var description: String { "no server is configured: give --server URL, or set sync.server in \(settingsFile)" }
}
