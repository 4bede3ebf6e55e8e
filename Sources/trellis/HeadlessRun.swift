import Foundation
import TrellisCore
import TrellisDemo
import TrellisHeadless
import TrellisSync

/// `trellis --headless [PATH] [--script FILE|-] [--server URL]`: the app without a window.
/// Without a script it prints the page at PATH; with one it runs the script's steps (which
/// print what they choose). With a server it syncs once before the first page (a failure
/// there is only reported: the steps work on the store), on each `sync` step, and once
/// after the last step when changes wait, so what the script typed reaches the server; when
/// that last pass fails, the command ends with status 1 (the changes stay queued for the
/// next run).
@MainActor
struct HeadlessRun {
    let options: ShellOptions
    let path: String?
    let notification: PushNotification?
    let script: HeadlessScript?

    /// Reads and checks a script before anything runs (`-`: standard input).
    nonisolated static func loadScript(_ file: String) throws -> HeadlessScript {
        let data: Data
        if file == "-" {
            data = FileHandle.standardInput.readDataToEndOfFile()
        } else {
            do {
                data = try Data(contentsOf: URL(fileURLWithPath: file))
            } catch {
                throw ScriptUnreadable(file: file, reason: (error as NSError).localizedDescription)
            }
        }
        guard let source = String(data: data, encoding: .utf8) else {
            throw ScriptUnreadable(file: file, reason: "it is not UTF-8 text")
        }
        return try HeadlessScript(source: source, name: file, extraCommands: ["sync"])
    }

    func run() async throws {
        let shell = try options.makeShell(backgroundSync: false, logLevel: .warning)
        let screen = HeadlessFrontend(shell: shell)
        let sync = shell.resolve(EntitySync.self)
        if let sync {
            // Offline first: the steps run on the store all the same; the last pass reports.
            do { try await Self.pass(sync) } catch {
                FileHandle.standardError.write(Data("trellis: \(error)\n".utf8))
            }
        }
        try shell.navigate(to: "/")
        let start = path ?? (script == nil ? "/catalog" : "/")
        if start != "/" { try shell.navigate(to: start, external: true) }
        if let notification { NotificationRouter(shell: shell).route(notification) }
        var stepFailure: HeadlessScriptError?
        if let script {
            var commands: [String: HeadlessScript.Command] = [:]
            if let sync { commands["sync"] = { _ in try await Self.pass(sync) } }
            do {
                try await script.run(on: screen, commands: commands) { print($0) }
            } catch {
                stepFailure = error
            }
        } else {
            // A plugin's page shows once its plugin has answered (or said why not, in time).
            try await screen.settle()
            print(screen.render())
        }
        // What the steps before a failed one saved is synced all the same.
        guard let stepFailure else {
            if let sync, try sync.pendingCount() > 0 { try await Self.pass(sync) }
            return
        }
        if let sync {
            do { try await Self.pass(sync) } catch {
                FileHandle.standardError.write(Data("trellis: \(error)\n".utf8))
            }
        }
        throw stepFailure
    }

    /// One pass; its failure is thrown.
    private static func pass(_ sync: EntitySync) async throws {
        let report = try await sync.syncNow()
        if let failure = report.failure { throw SyncSummary.Failure(error: failure, pending: report.pending) }
    }
}

/// A script file that cannot be read.
struct ScriptUnreadable: Error, CustomStringConvertible {
    let file: String
    let reason: String
    var description: String { "cannot read the script \(file): \(reason)" }
}
