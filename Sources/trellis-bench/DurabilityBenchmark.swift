import ArgumentParser
import Foundation
import TrellisStore

/// `durability`: the SIGKILL-during-saves loop. Each round starts `trellis-store-crasher`,
/// which saves notes in a loop and reports each save after it returned; the round kills it with
/// SIGKILL at a random moment, reopens the store and checks that every reported save is there,
/// that the save cut by the kill is all there or absent, and that `PRAGMA integrity_check`
/// says ok. Reports committed saves lost (goal 0) and integrity checks passed (goal: all).
struct DurabilityBenchmark: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "durability",
        abstract: "SIGKILL during saves, N rounds: committed saves lost and integrity checks passed."
    )

    @Option(help: "Rounds of save-then-kill.") var rounds = 100

    func run() throws {
        let crasher = try ProcessRunner.sibling("trellis-store-crasher")
        let model = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
            .appendingPathComponent("../../data/model.json").standardizedFileURL
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("trellis-durability-\(getpid())")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let store = folder.appendingPathComponent("durability.sqlite")
        let parsedModel = try ManagedObjectModel(contentsOf: model)
        var next = 1
        var reportedSaves = 0
        var lost = 0
        var partial = 0
        var integrityPassed = 0
        for _ in 0..<rounds {
            let reported = try Self.runAndKill(crasher, store: store.path, model: model.path, first: next)
            reportedSaves += reported.count
            let opened = try PersistentStore(url: store, model: parsedModel)
            let context = opened.newContext()
            if try opened.integrityCheck() == ["ok"] { integrityPassed += 1 }
            for (number, rows) in reported {
                let found = try context.count(for: FetchRequest(entityName: "Note", predicate: .equal("body", .string(String(number)))))
                if found != rows { lost += 1 }
            }
            let cut = (reported.last?.number ?? next - 1) + 1
            let cutRows = try context.count(for: FetchRequest(entityName: "Note", predicate: .equal("body", .string(String(cut)))))
            if cutRows != 0 && cutRows != 1 + cut % 5 { partial += 1 }
            try opened.close()
            next = cut + 1
        }
        Report.figure("durability-rounds", Double(rounds), "rounds")
        Report.figure("durability-saves-reported", Double(reportedSaves), "saves")
        Report.figure("durability-committed-saves-lost", Double(lost), "saves")
        Report.figure("durability-partial-saves", Double(partial), "saves")
        Report.figure("durability-integrity-passed", Double(integrityPassed), "of \(rounds)")
        if lost > 0 || partial > 0 || integrityPassed != rounds { throw ExitCode(1) }
    }

    /// Runs the crasher until it reported at least one save, kills it a random moment later,
    /// and returns the saves it reported (complete lines only).
    static func runAndKill(_ crasher: String, store: String, model: String, first: Int) throws -> [(number: Int, rows: Int)] {
        let process = Process()
        let output = Pipe()
        process.executableURL = URL(fileURLWithPath: crasher)
        process.arguments = [store, model, String(first)]
        process.standardOutput = output
        process.standardError = FileHandle.nullDevice
        try process.run()
        var poller = pollfd(fd: output.fileHandleForReading.fileDescriptor, events: Int16(POLLIN), revents: 0)
        _ = poll(&poller, 1, 10_000)
        Thread.sleep(forTimeInterval: Double.random(in: 0...0.040))  // a random moment of the save loop
        kill(process.processIdentifier, SIGKILL)
        process.waitUntilExit()
        let text = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        return text.split(separator: "\n", omittingEmptySubsequences: false).dropLast().compactMap { line in
            let fields = line.split(separator: " ").compactMap { Int($0) }
            return fields.count == 2 ? (fields[0], fields[1]) : nil
        }
    }
}
