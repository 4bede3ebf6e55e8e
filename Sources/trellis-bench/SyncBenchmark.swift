import ArgumentParser
import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import TrellisCore
import TrellisStore
import TrellisSync

/// `sync`: the notes sync with N notes (10,000 by default) on a local json-server-py (PyPI:
/// `bash .ci/test` installs it), a server with no ETag, no filter and no pagination, so every
/// pass fetches and compares the whole list.
///
/// - `sync-first-pull-10k`: a fresh store's first pass, every note inserted (goal ≤ 1,000 ms);
/// - `sync-noop-10k`: a pass with nothing to do, median of the runs (goal ≤ 200 ms);
/// - `headless-notes-10k`: `trellis --headless /notes --server URL` on that store (a pass, then
///   the notes page printed), wall time, median of the runs (goal < 1 s);
/// - `ratio sync-noop-10k`: the floor — fetching the same list and parsing it with
///   URLSession and JSONSerialization — over the pass (1 would be a pass that costs nothing
///   more than reading the list).
struct SyncBenchmark: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "sync",
        abstract: "Notes sync with 10,000 notes on json-server-py: first pull, a pass with no changes, trellis --headless /notes."
    )

    @Option(help: "Notes on the server.") var notes = 10_000
    @Option(help: "Passes with no changes, timed.") var runs = 7

    func run() throws {
        let settings = self
        Task { @MainActor in
            do {
                try await settings.measure()
                fflush(nil)
                Self.exit()
            } catch {
                fflush(nil)
                Self.exit(withError: error)
            }
        }
        dispatchMain()
    }

    @MainActor
    private func measure() async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("trellis-bench-sync-\(getpid())")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let server = try await JSONServerProcess.start(notes: notes, in: folder)
        defer { server.stop() }
        let label = notes % 1000 == 0 ? "\(notes / 1000)k" : String(notes)

        let model = try ManagedObjectModel(contentsOf: URL(fileURLWithPath: #filePath).deletingLastPathComponent()
            .appendingPathComponent("../../data/model.json").standardizedFileURL)
        let storeURL = folder.appendingPathComponent("notes.sqlite")
        let store = try PersistentStore(url: storeURL, model: model)
        let settings = SyncSettings(timeout: 60, retries: 0)
        let sync = try EntitySync(store: store, bus: nil, server: server.url, settings: settings)

        var start = Report.now()
        let first = try await sync.syncNow()
        let firstPull = Report.now() - start
        guard first.failure == nil, first.inserted == notes else {
            throw ValidationError("the first pull did not take every note: \(first)")
        }
        Report.figure("sync-first-pull-\(label)", firstPull * 1000, "ms")

        var passes: [Double] = []
        var floors: [Double] = []
        for _ in 0..<runs {
            start = Report.now()
            let report = try await sync.syncNow()
            passes.append(Report.now() - start)
            guard report.failure == nil, report.inserted + report.updated + report.pushed == 0 else {
                throw ValidationError("a pass with no changes changed something: \(report)")
            }
            floors.append(try await Self.readList(server.url.appendingPathComponent("notes")))
        }
        Report.figure("sync-noop-\(label)", Report.median(passes) * 1000, "ms")
        Report.ratio("sync-noop-\(label)", Report.median(zip(floors, passes).map { $0 / $1 }))
        try store.close()

        let trellis = try ProcessRunner.sibling("trellis")
        var shows: [Double] = []
        for _ in 0..<max(3, runs / 2) {
            start = Report.now()
            let output = try Self.runTrellis(trellis, ["--headless", "/notes", "--server", server.url.absoluteString,
                                                     "--database", storeURL.path], home: folder)
            shows.append(Report.now() - start)
            guard output.contains("| Text of note") else {
                throw ValidationError("trellis --headless /notes printed no notes: \(output.prefix(300))")
            }
        }
        Report.figure("headless-notes-\(label)", Report.median(shows) * 1000, "ms")
    }

    /// Seconds to fetch the list and parse it with Foundation alone.
    static func readList(_ url: URL) async throws -> Double {
        let start = Report.now()
        let (data, _) = try await URLSession.shared.data(from: url)
        _ = try JSONSerialization.jsonObject(with: data)
        return Report.now() - start
    }

    /// Runs `trellis` to its end; its standard output.
    static func runTrellis(_ path: String, _ arguments: [String], home: URL) throws -> String {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: path)
        process.arguments = arguments
        var environment = ProcessEnvironment.current
        environment["HOME"] = home.path
        environment["XDG_CONFIG_HOME"] = home.appendingPathComponent("config").path
        process.environment = environment
        let output = Pipe()
        process.standardOutput = output
        process.standardError = FileHandle.nullDevice
        try process.run()
        let data = output.fileHandleForReading.readDataToEndOfFile()
        var status: Int32 = 0
        _ = waitpid(process.processIdentifier, &status, 0)
        guard status == 0 else { throw ValidationError("trellis \(arguments) exited with status \(status)") }
        return String(decoding: data, as: UTF8.self)
    }
}

/// json-server-py on 127.0.0.1 and a free port, serving `notes` generated notes.
struct JSONServerProcess {
    let process: Process
    let url: URL

    static func start(notes: Int, in folder: URL) async throws -> JSONServerProcess {
        let stamp = "2026-01-02T03:04:05.678Z"
        var items: [String] = []
        items.reserveCapacity(notes)
        for number in 1...max(1, notes) {
            let id = UUID().uuidString.lowercased()
            let body = String(repeating: "Text of note \(number). ", count: 4)
            items.append(#"{"id":"\#(id)","clientId":"\#(id)","title":"Note \#(number)","body":"\#(body)","created":"\#(stamp)","updated":"\#(stamp)"}"#)
        }
        let database = folder.appendingPathComponent("db.json")
        try Data(("{\"notes\":[" + items.joined(separator: ",") + "]}").utf8).write(to: database)
        let port = try freePort()
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["python3", "-m", "json_server.cli", "-b", "127.0.0.1:\(port)", database.path]
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
        let url = URL(string: "http://127.0.0.1:\(port)")!
        for _ in 0..<600 {
            if (try? await URLSession.shared.data(from: url.appendingPathComponent("notes"))) != nil {
                return JSONServerProcess(process: process, url: url)
            }
            guard process.isRunning else {
                throw ValidationError("json-server-py did not start (python3 -m pip install json-server-py)")
            }
            try await Task.sleep(for: .milliseconds(100))
        }
        process.terminate()
        throw ValidationError("json-server-py did not answer within 60 s")
    }

    /// Ends the server: SIGKILL (its event loop does not end on SIGTERM), then reaps it here
    /// (Process.waitUntilExit would wait for a run loop the main queue never runs).
    func stop() {
        kill(process.processIdentifier, SIGKILL)
        var status: Int32 = 0
        _ = waitpid(process.processIdentifier, &status, 0)
    }

    /// A TCP port on 127.0.0.1 that nothing listens on now.
    private static func freePort() throws -> Int {
        let socketFD = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        defer { close(socketFD) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafeMutablePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { address in
                bind(socketFD, address, length) == 0 && getsockname(socketFD, address, &length) == 0
            }
        }
        guard bound else { throw ValidationError("no free port") }
        return Int(UInt16(bigEndian: address.sin_port))
    }
}
