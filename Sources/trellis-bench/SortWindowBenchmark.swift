import ArgumentParser
import Dispatch
import Foundation
import TrellisCore
import TrellisStore
// `afterNextFrame` and `automate`: frame callbacks and header clicks for benchmarks, not API.
@_spi(Testing) import TrellisGtk

/// `trellis-bench sort-window`: a Trellis window showing 1,000,000 fetched notes in a
/// `GtkColumnView` (title and creation date columns); after the first frame, each round
/// sorts by the title column as a header click does (the automation's `sort`, through
/// GTK's column sorter) and times it to the frame that shows the sorted rows:
/// `sort-frame-1m`, the median. Rounds alternate ascending and descending. Needs a display
/// (Xvfb is fine).
struct SortWindowBenchmark: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "sort-window",
        abstract: "Sorting a million fetched rows in a GtkColumnView by a header, to the frame showing them."
    )

    @Option(help: "Notes in the store.")
    var rows = 1_000_000

    @Option(help: "Timed sorts; the median is reported.")
    var rounds = 5

    func run() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("trellis-bench-sortwin-\(UUID())")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let (rows, rounds) = (rows, rounds)
        let status = try MainActor.assumeIsolated {
            let store = try SortBenchmark.makeStore(at: directory.appendingPathComponent("sort.sqlite"), rows: rows)
            return try SortWindow(store: store, rows: rows, rounds: rounds).run()
        }
        if status != 0 { throw ExitCode(status) }
    }
}

/// The window, its one page, and the timed header clicks.
@MainActor
private final class SortWindow {
    private let shell = Shell()
    private let app = Application(id: "org.trellis.Bench.SortWindow", unique: false)
    private let rows: Int
    private let rounds: Int
    private var frontend: GtkFrontend?
    private var times: [Double] = []
    private var status: Int32 = 0

    init(store: PersistentStore, rows: Int, rounds: Int) throws {
        self.rows = rows
        self.rounds = rounds
        shell.provide(SortedNotes(store: store))
        try shell.route("/", to: SortedNotesPage.self)
        app.onActivate = { [weak self] _ in self?.activate() }
    }

    func run() -> Int32 {
        let result = app.run()
        return result != 0 ? result : status
    }

    private func activate() {
        let frontend = GtkFrontend(shell: shell, application: app, title: "Sort")
        self.frontend = frontend
        do { try shell.navigate(to: "/") } catch { return fail("\(error)") }
        frontend.window.afterFirstFrame { [weak self] in self?.sortNext() }
        frontend.window.present()
    }

    private func sortNext() {
        guard let frontend else { return }
        guard times.count < rounds else {
            Report.figure("sort-frame-1m", Report.median(times) * 1000, "ms")
            return app.quit()
        }
        let ascending = times.count % 2 == 0
        let start = Report.now()
        frontend.automate("sort", ascending ? "title" : "title desc") { [weak self] reply in
            guard let self else { return }
            guard reply["ok"] == true else { return self.fail("sort: \(reply)") }
            frontend.window.afterNextFrame { [weak self] in
                guard let self else { return }
                self.times.append(Report.now() - start)
                self.sortNext()
            }
        }
    }

    private func fail(_ message: String) {
        FileHandle.standardError.write(Data("sort-window: \(message)\n".utf8))
        status = 1
        app.quit()
    }
}

/// The store the page fetches from, provided on the shell.
@MainActor
private final class SortedNotes {
    let store: PersistentStore
    init(store: PersistentStore) { self.store = store }
}

/// `/`: the notes in columns, newest first until a header is clicked.
private final class SortedNotesPage: PageController {
    required init(values: RouteValues, shell: Shell) {
        super.init(values: values, shell: shell)
        title = "Sort"
        guard let notes = shell.resolve(SortedNotes.self) else { return }
        do {
            let source = try FetchedSource(
                request: FetchRequest(entityName: "Note", sortKeys: [.descending("created")]),
                context: notes.store.newContext())
            content = .table(TableContainer.records(source, columns: SortBenchmark.keyColumns))
        } catch {
            content = .text("\(error)")
        }
    }
}
