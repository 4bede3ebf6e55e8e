import ArgumentParser
import TrellisCore

/// `trellis-bench table`: the table container over a million strings.
///
/// - `table-build`: making an ``ArraySource`` and a ``TableContainer`` over the strings
///   (the strings themselves are made beforehand), then `table-first-rows`: reading the
///   first 50 flat rows, cells included.
/// - `table-insert`: single-row inserts at random positions (seeded) into the source, each
///   delivered to an observer of the container as one flat change. The baseline, measured
///   in the same run on fewer inserts, is the naive design: an array of strings and a
///   flattened row array rebuilt after each change, announced as a reset. The ratio
///   compares the time per insert. `table-insert-array` is a plain array insert without
///   any rebuild (what a source over `[String]` would cost), for scale.
/// - `table-search-first` / `table-search-next`: the first keystroke of a search (folding
///   every row once, then filtering) and a following one (narrowing the shown rows).
/// - `table-search-every-row`: a keystroke that compares every row, as "row 1" after "row "
///   does in the typing benchmark's million rows (each row shown before it); the median of
///   `rounds`, each after going back to "row ".
struct TableBenchmark: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "table",
        abstract: "Table container over 1,000,000 strings: build, first rows, live inserts, search."
    )

    @Option(help: "Rows in the source.")
    var rows = 1_000_000

    @Option(help: "Single-row inserts applied through the container.")
    var inserts = 10_000

    @Option(help: "Inserts measured for the naive baseline (it rebuilds every row per insert).")
    var baselineInserts = 100

    @Option(help: "Timed rounds of the build; the median is reported.")
    var rounds = 5

    func run() throws {
        // ArgumentParser runs commands on the main thread, where the main actor executes.
        try MainActor.assumeIsolated { try measure() }
    }

    @MainActor
    private func measure() throws {
        let strings = (0..<rows).map { "Row \($0)" }
        var checksum = 0

        var builds: [Double] = []
        var firstReads: [Double] = []
        for _ in 0..<rounds {
            var container: TableContainer?
            builds.append(Report.time { container = TableContainer(source: ArraySource(strings)) })
            firstReads.append(Report.time {
                for index in 0..<50 {
                    if case .item(_, let cell)? = container?.flatRow(at: index) { checksum &+= cell.columns[0].utf8.count }
                }
            })
        }
        Report.figure("table-build", Report.median(builds) * 1000, "ms")
        Report.figure("table-first-rows", Report.median(firstReads) * 1000, "ms")

        let trellis = try trellisInsertTime(strings)
        Report.figure("table-insert", trellis * 1000, "ms")
        Report.figure("table-insert-per-row", trellis / Double(inserts) * 1e6, "µs")
        let naive = try naiveInsertTime(strings) / Double(baselineInserts)
        Report.figure("table-insert-naive-per-row", naive * 1e6, "µs")
        let array = try arrayInsertTime(strings) / Double(inserts)
        Report.figure("table-insert-array-per-row", array * 1e6, "µs")
        Report.ratio("table-insert", naive / (trellis / Double(inserts)))

        let catalog = TableContainer(source: ArraySource(strings), searchable: true)
        Report.figure("table-search-first", Report.time { catalog.searchText = "7" } * 1000, "ms")
        Report.figure("table-search-next", Report.time { catalog.searchText = "77" } * 1000, "ms")
        let everyRow = (0..<rounds).map { _ in
            catalog.searchText = "row "
            return Report.time { catalog.searchText = "row 1" }
        }
        Report.figure("table-search-every-row", Report.median(everyRow) * 1000, "ms")
        guard checksum > 0, catalog.flatCount > 0 else {
            throw ValidationError("the rows read or searched were empty")
        }
    }

    /// Seconds for `inserts` single-row inserts into a source of `strings` seen through a
    /// container; every insert must arrive as one flat change `(position, 0, 1)`.
    @MainActor
    private func trellisInsertTime(_ strings: [String]) throws -> Double {
        let source = ArraySource(strings)
        let container = TableContainer(source: source)
        var delivered = 0
        let observation = container.onFlatChanges { changes in
            if changes.count == 1, changes[0].removed == 0, changes[0].added == 1 { delivered += 1 }
        }
        defer { observation.cancel() }
        var generator = SplitMix(seed: 1)
        let positions = (0..<inserts).map { Int.random(in: 0...(strings.count + $0), using: &generator) }
        let seconds = try Report.time {
            for (step, position) in positions.enumerated() { try source.insert("New \(step)", at: position) }
        }
        guard delivered == inserts, container.flatCount == strings.count + inserts else {
            throw ValidationError("expected \(inserts) single-row changes, observed \(delivered)")
        }
        return seconds
    }

    /// Seconds for `baselineInserts` inserts into an array, each followed by rebuilding the
    /// flattened rows and announcing a reset.
    private func naiveInsertTime(_ strings: [String]) throws -> Double {
        var rows = strings
        var flat = rows.indices.map { TableIndexPath(row: $0) }
        var resets: [FlatChange] = []
        var generator = SplitMix(seed: 1)
        let seconds = Report.time {
            for step in 0..<baselineInserts {
                rows.insert("New \(step)", at: Int.random(in: 0...rows.count, using: &generator))
                let removed = flat.count
                flat = rows.indices.map { TableIndexPath(row: $0) }
                resets.append(FlatChange(position: 0, removed: removed, added: flat.count))
            }
        }
        guard resets.count == baselineInserts, flat.count == strings.count + baselineInserts else {
            throw ValidationError("the naive baseline rebuilt \(flat.count) rows after \(resets.count) resets")
        }
        return seconds
    }

    /// Seconds for `inserts` inserts into a plain array of the strings.
    private func arrayInsertTime(_ strings: [String]) throws -> Double {
        var rows = strings
        var generator = SplitMix(seed: 1)
        let seconds = Report.time {
            for step in 0..<inserts { rows.insert("New \(step)", at: Int.random(in: 0...rows.count, using: &generator)) }
        }
        guard rows.count == strings.count + inserts else {
            throw ValidationError("the array baseline holds \(rows.count) rows, not \(strings.count + inserts)")
        }
        return seconds
    }
}

/// A seeded generator (SplitMix64), so every run inserts at the same positions.
private struct SplitMix: RandomNumberGenerator {
    private var state: UInt64

    init(seed: UInt64) { state = seed }

    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}
