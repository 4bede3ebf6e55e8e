import ArgumentParser
import Foundation
import GRDBSQLite
import TrellisCore
import TrellisStore

/// `trellis-bench store`: the persistence layer on SQLite.
///
/// - `ratio store-insert`: 100,000 notes inserted into a context and saved in one save,
///   against the raw SQLite C API doing the same rows into the same schema in one
///   transaction with one prepared statement. The ids (UUIDs), titles, bodies and dates
///   are made beforehand for both; the baseline turns the ids into text with Foundation's
///   `uuidString`, Trellis with its own hex writer, and opens its connection without
///   SQLite's mutex as GRDB does. Raw time ÷ Trellis time, the median over rounds of each
///   round's ratio;
///   the context is released after the Trellis timing, as the raw side's connection and
///   input are.
/// - `first-page-1m`: a fetched source over 1,000,000 notes sorted by creation date,
///   from nothing to its first 50 rows read (a snapshot, a count, one page).
/// - `live-insert`: one note inserted and saved while that source is shown through a
///   table container, until the container announces its flat change `(0, 0, 1)`; median.
struct StoreBenchmark: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "store",
        abstract: "Store: bulk insert against raw SQLite, first page of a million rows, live insert."
    )

    @Option(help: "Notes inserted in one save for the insert ratio.")
    var inserts = 100_000

    @Option(help: "Notes in the store for the first-page and live-insert figures.")
    var rows = 1_000_000

    @Option(help: "Timed rounds per figure; the median is reported.")
    var rounds = 7

    @Option(help: "Single live inserts timed.")
    var liveInserts = 20

    func run() throws {
        // ArgumentParser runs commands on the main thread, where the main actor executes.
        try MainActor.assumeIsolated { try measure() }
    }

    @MainActor
    private func measure() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("trellis-bench-store-\(UUID())")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let model = try Self.model()
        let input = NoteInput(count: inserts)

        var trellisTimes: [Double] = []
        var rawTimes: [Double] = []
        for round in 0..<rounds {
            let url = directory.appendingPathComponent("insert-\(round).sqlite")
            let store = try PersistentStore(url: url, model: model)
            // The context outlives the timing: its teardown is not part of inserting.
            var context: ManagedObjectContext?
            trellisTimes.append(try Report.time { context = try insertNotes(input, into: store) })
            guard let context, try context.count(for: FetchRequest(entityName: "Note")) == inserts else {
                throw ValidationError("the Trellis save did not write \(inserts) notes")
            }
            try store.close()
            let rawURL = directory.appendingPathComponent("raw-\(round).sqlite")
            try PersistentStore(url: rawURL, model: model).close()
            rawTimes.append(try RawInserter(path: rawURL.path).insert(input))
        }
        Report.figure("store-insert-trellis", Report.median(trellisTimes) * 1000, "ms")
        Report.figure("store-insert-raw", Report.median(rawTimes) * 1000, "ms")
        // Each round's two runs are next to each other in time: the median of the rounds'
        // ratios is steadier on a busy machine than the ratio of the medians.
        Report.ratio("store-insert", Report.median(zip(rawTimes, trellisTimes).map { $0 / $1 }))

        let bigURL = directory.appendingPathComponent("million.sqlite")
        do {
            let store = try PersistentStore(url: bigURL, model: model)
            var made = 0
            while made < rows {
                let batch = min(100_000, rows - made)
                _ = try insertNotes(NoteInput(count: batch, first: made), into: store)
                made += batch
            }
            try store.close()
        }
        let store = try PersistentStore(url: bigURL, model: model)
        let context = store.newContext()
        let request = FetchRequest(entityName: "Note", sortKeys: [.descending("created")], batchSize: 50)
        var firstPages: [Double] = []
        var checksum = 0
        for _ in 0..<rounds {
            firstPages.append(try Report.time {
                let source = try FetchedSource(request: request, context: context)
                for row in 0..<50 { checksum &+= source.item(at: TableIndexPath(row: row)).id.hashValue & 1 }
                guard source.numberOfRows(inSection: 0) == rows else {
                    throw ValidationError("the fetched source counted \(source.numberOfRows(inSection: 0)) rows")
                }
            })
        }
        Report.figure("first-page-1m", Report.median(firstPages) * 1000, "ms")
        Report.figure("live-insert", try liveInsertTime(request: request, context: context) * 1000, "ms")
        guard checksum >= 0 else { throw ValidationError("unreachable checksum") }
    }

    /// Seconds from saving one new note to the container's flat change, median of
    /// `liveInserts`; each must arrive as one change `(0, 0, 1)`.
    @MainActor
    private func liveInsertTime(request: FetchRequest, context: ManagedObjectContext) throws -> Double {
        let source = try FetchedSource(request: request, context: context)
        let container = TableContainer(source: source)
        var received: [[FlatChange]] = []
        let token = container.onFlatChanges { received.append($0) }
        defer { token.cancel() }
        var times: [Double] = []
        for number in 0..<liveInserts {
            received.removeAll()
            let start = Report.now()
            let note = try context.insert("Note")
            note["title"] = .string("live \(number)")
            note["created"] = .date(Date())
            note["updated"] = .date(Date())
            try context.save()
            let deadline = Date(timeIntervalSinceNow: 10)
            while received.isEmpty && Date() < deadline {
                _ = RunLoop.main.run(mode: .default, before: Date(timeIntervalSinceNow: 0.0005))
            }
            times.append(Report.now() - start)
            guard received == [[FlatChange(position: 0, removed: 0, added: 1)]] else {
                throw ValidationError("live insert \(number) arrived as \(received)")
            }
        }
        return Report.median(times)
    }

    /// Inserts and saves the notes; returns the context that did it.
    private func insertNotes(_ input: NoteInput, into store: PersistentStore) throws -> ManagedObjectContext {
        let context = ManagedObjectContext(store: store, undoEnabled: false)
        for index in 0..<input.count {
            let note = try context.insert("Note", id: input.ids[index])
            note["title"] = .string(input.titles[index])
            note["body"] = .string(input.bodies[index])
            note["created"] = .date(input.dates[index])
            note["updated"] = .date(input.dates[index])
        }
        try context.save()
        return context
    }

    /// The benchmark's model: the demo's own (`data/model.json`, read from the source tree), so
    /// its Note has the demo's indexes: by creation date, and by title, which a notes table
    /// sorts by.
    static func model() throws -> ManagedObjectModel {
        try ManagedObjectModel(contentsOf: URL(fileURLWithPath: #filePath).deletingLastPathComponent()
            .appendingPathComponent("../../data/model.json").standardizedFileURL)
    }
}

/// The values of the inserted notes, made before timing.
struct NoteInput {
    let count: Int
    let ids: [UUID]
    let titles: [String]
    let bodies: [String]
    let dates: [Date]

    init(count: Int, first: Int = 0) {
        self.count = count
        ids = (0..<count).map { _ in UUID() }
        titles = (first..<first + count).map { "Note number \($0)" }
        bodies = (first..<first + count).map { "Body of note \($0): things to remember." }
        dates = (first..<first + count).map { Date(timeIntervalSince1970: 1_700_000_000 + Double($0)) }
    }
}

/// The baseline: raw SQLite C API, one transaction, one prepared statement.
struct RawInserter {
    let path: String

    /// Seconds to insert the notes, from BEGIN to COMMIT.
    func insert(_ input: NoteInput) throws -> Double {
        var db: OpaquePointer?
        // One thread uses the connection: no SQLite mutex, as GRDB opens its connections.
        guard sqlite3_open_v2(path, &db, SQLITE_OPEN_READWRITE | SQLITE_OPEN_NOMUTEX, nil) == SQLITE_OK else {
            throw failure(db)
        }
        defer { sqlite3_close_v2(db) }
        try execute(db, "PRAGMA foreign_keys = ON")
        let transient = unsafeBitCast(OpaquePointer(bitPattern: -1), to: sqlite3_destructor_type.self)
        return try Report.time {
            try execute(db, "BEGIN IMMEDIATE")
            var statement: OpaquePointer?
            let sql = "INSERT INTO Note (id, title, body, created, updated, author) VALUES (?, ?, ?, ?, ?, NULL)"
            guard sqlite3_prepare_v2(db, sql, -1, &statement, nil) == SQLITE_OK else { throw failure(db) }
            defer { sqlite3_finalize(statement) }
            for index in 0..<input.count {
                let id = input.ids[index].uuidString
                let date = input.dates[index].timeIntervalSince1970
                sqlite3_bind_text(statement, 1, id, -1, transient)
                sqlite3_bind_text(statement, 2, input.titles[index], -1, transient)
                sqlite3_bind_text(statement, 3, input.bodies[index], -1, transient)
                sqlite3_bind_double(statement, 4, date)
                sqlite3_bind_double(statement, 5, date)
                guard sqlite3_step(statement) == SQLITE_DONE else { throw failure(db) }
                sqlite3_reset(statement)
            }
            try execute(db, "COMMIT")
        }
    }

    private func execute(_ db: OpaquePointer?, _ sql: String) throws {
        guard sqlite3_exec(db, sql, nil, nil, nil) == SQLITE_OK else { throw failure(db) }
    }

    private func failure(_ db: OpaquePointer?) -> ValidationError {
        ValidationError("raw SQLite: \(db.map { String(cString: sqlite3_errmsg($0)) } ?? "cannot open \(path)")")
    }
}
