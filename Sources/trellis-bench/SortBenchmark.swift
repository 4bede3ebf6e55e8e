import ArgumentParser
import Foundation
import TrellisCore
import TrellisStore

/// `trellis-bench sort`: sorting a table by a column, as a click on its header does.
///
/// - `sort-fetched-1m` and `ratio sort-fetched`: a `FetchedSource` over 1,000,000 notes
///   of the demo's model (sorted by creation date; titles in an order unrelated to it, see
///   ``title(of:rows:)``) shown through a records `TableContainer` with columns, sorted by
///   the title column, which the demo's model indexes (`Note_byTitle`: SQLite reads the first
///   rows in order from the index, `ORDER BY title, created DESC, id LIMIT …`), until its first
///   50 rows are read with their cells — what the first frame after the click shows. The
///   baseline: the same titles and dates in memory, in an array of structs sorted with the
///   standard library's `sort` by title, then its first 50 read. Rounds alternate ascending
///   and descending, so each round reorders; the median over rounds of each round's baseline
///   ÷ Trellis.
/// - `sort-array-1m` and `ratio sort-array`: the same sort on an `ArraySource` of the
///   1,000,000 structs through the container, whose title column reads them through a key
///   path (`TableColumn(key:title:value:)`, no key-value coding), a new source in creation
///   order each round, against the same baseline.
struct SortBenchmark: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "sort",
        abstract: "Sorting a million rows by a column to its first rows: the store (SQL) and memory vs Swift's sort."
    )

    @Option(help: "Rows sorted.")
    var rows = 1_000_000

    @Option(help: "Timed rounds per figure; the median is reported.")
    var rounds = 5

    /// The rows read after a sort: a window's first screenful and more.
    static let firstRows = 50

    func run() throws {
        // ArgumentParser runs commands on the main thread, where the main actor executes.
        try MainActor.assumeIsolated { try measure() }
    }

    @MainActor
    private func measure() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("trellis-bench-sort-\(UUID())")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let notes = (0..<rows).map { SortedNote(title: Self.title(of: $0, rows: rows), created: 1_700_000_000 + Double($0)) }
        let store = try makeStore(at: directory.appendingPathComponent("sort.sqlite"))
        let fetched = try FetchedSource(
            request: FetchRequest(entityName: "Note", sortKeys: [.descending("created")], batchSize: Self.firstRows),
            context: store.newContext())
        guard fetched.numberOfRows(inSection: 0) == rows else { throw ValidationError("the store holds the wrong count") }
        let fetchedTable = TableContainer.records(fetched, columns: Self.keyColumns)

        var fetchedTimes: [Double] = []
        var arrayTimes: [Double] = []
        var baselineTimes: [Double] = []
        for round in 0..<rounds {
            let ascending = round % 2 == 0
            var expected: [String] = []
            baselineTimes.append(Report.time { expected = baselineFirstRows(notes, ascending: ascending) })
            fetchedTimes.append(try Report.time {
                try fetchedTable.sort(by: "title", ascending: ascending)
                try check(firstRows(of: fetchedTable), expected)
            })
            // Every sort starts from the creation order, as the baseline's and SQLite's do (a
            // sorted source keeps its order when its elements are replaced: a new one).
            let arrayTable = TableContainer.records(ArraySource(notes), columns: Self.typedColumns)
            arrayTimes.append(try Report.time {
                try arrayTable.sort(by: "title", ascending: ascending)
                try check(firstRows(of: arrayTable), expected)
            })
        }
        Report.figure("sort-baseline-swift-1m", Report.median(baselineTimes) * 1000, "ms")
        Report.figure("sort-fetched-1m", Report.median(fetchedTimes) * 1000, "ms")
        Report.figure("sort-array-1m", Report.median(arrayTimes) * 1000, "ms")
        // Each round's runs are next to each other in time: the median of the rounds' ratios
        // is steadier on a busy machine than the ratio of the medians.
        Report.ratio("sort-fetched", Report.median(zip(baselineTimes, fetchedTimes).map { $0 / $1 }))
        Report.ratio("sort-array", Report.median(zip(baselineTimes, arrayTimes).map { $0 / $1 }))
    }

    /// The first rows' titles as the table shows them (the cells are made).
    @MainActor
    private func firstRows(of table: TableContainer) -> [String] {
        (0..<Self.firstRows).compactMap { index in
            guard case .item(_, let cell)? = table.flatRow(at: index) else { return nil }
            return cell.columns[0]
        }
    }

    /// The baseline: a copy of the array (in creation order) sorted by title with the
    /// standard library, then its first rows read.
    private func baselineFirstRows(_ notes: [SortedNote], ascending: Bool) -> [String] {
        let sorted = notes.sorted { ascending ? $0.title < $1.title : $1.title < $0.title }
        return sorted.prefix(Self.firstRows).map(\.title)
    }

    /// Trellis must show the rows the baseline found, in its order.
    private func check(_ titles: [String], _ expected: [String]) throws {
        guard titles == expected, titles.count == Self.firstRows else {
            throw ValidationError("the first rows are \(titles.prefix(3)), expected \(expected.prefix(3))")
        }
    }

    /// A store of `rows` notes with the same titles and dates as the array.
    @MainActor
    private func makeStore(at url: URL) throws -> PersistentStore {
        try Self.makeStore(at: url, rows: rows)
    }

    /// A store of `rows` notes titled by ``title(of:rows:)``, dated one second apart.
    @MainActor
    static func makeStore(at url: URL, rows: Int) throws -> PersistentStore {
        let model = try StoreBenchmark.model()
        let store = try PersistentStore(url: url, model: model)
        var made = 0
        while made < rows {
            let batch = min(100_000, rows - made)
            let context = ManagedObjectContext(store: store, undoEnabled: false)
            for index in made..<made + batch {
                let note = try context.insert("Note")
                note["title"] = .string(Self.title(of: index, rows: rows))
                note["body"] = .string("")
                note["created"] = .date(Date(timeIntervalSince1970: 1_700_000_000 + Double(index)))
                note["updated"] = .date(Date(timeIntervalSince1970: 1_700_000_000 + Double(index)))
            }
            try context.save()
            made += batch
        }
        return store
    }

    /// The title of the note created `index`th: "Note number N" with N a fixed permutation
    /// of the indices (multiplying by a prime that does not divide `rows`), so that sorting
    /// by title shuffles the creation order thoroughly.
    static func title(of index: Int, rows: Int) -> String {
        "Note number \((index * 999_983) % max(rows, 1))"
    }

    /// The columns of the store's notes, read by key.
    static let keyColumns = [TableColumn(key: "title", title: "Title"), TableColumn(key: "created", title: "Created")]

    /// The same columns over the in-memory notes, read through key paths.
    static let typedColumns = [TableColumn(key: "title", title: "Title", value: \SortedNote.title),
                               TableColumn(key: "created", title: "Created", value: \SortedNote.created)]
}

/// A note of the in-memory side: the title and date the store's notes have.
struct SortedNote: Sendable {
    let title: String
    let created: Double
}
