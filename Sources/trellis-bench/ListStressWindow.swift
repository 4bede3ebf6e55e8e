import ArgumentParser
import Dispatch
import Foundation
import TrellisCore
// `afterNextFrame`: a frame callback for automation and benchmarks, not API.
@_spi(Testing) import TrellisGtk

/// `liststress-window ROWS INSERTS`, the Trellis side of `liststress`, run by it as a child
/// process: a Trellis window whose page lists ROWS rows from an `ArraySource`; after the first
/// frame it inserts INSERTS rows one at a time (each announced as its own change) at the same
/// pseudo-random positions as the C baseline, and prints `liststress: MS ms`, the time to the
/// frame that shows them.
struct ListStressWindow: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "liststress-window",
        abstract: "The Trellis window of `liststress` (run by it).",
        shouldDisplay: false
    )

    @Argument(help: "Rows in the list.") var rows: Int
    @Argument(help: "Rows inserted one at a time after the first frame.") var inserts: Int

    func run() throws {
        let (rows, inserts) = (rows, inserts)
        let status = try MainActor.assumeIsolated { try StressWindow(rows: rows, inserts: inserts).run() }
        if status != 0 { throw ExitCode(status) }
    }
}

/// The window and its one page.
@MainActor
private final class StressWindow {
    private let shell = Shell()
    private let app = Application(id: "org.trellis.Bench.ListStress", unique: false)
    private let source: ArraySource<String>
    private let inserts: Int
    private var frontend: GtkFrontend?

    init(rows: Int, inserts: Int) throws {
        source = ArraySource((0..<rows).map { "row \($0)" })
        self.inserts = inserts
        shell.provide(StressRows(source: source))
        try shell.route("/", to: StressPage.self)
        app.onActivate = { [weak self] _ in self?.activate() }
    }

    func run() -> Int32 { app.run() }

    private func activate() {
        let frontend = GtkFrontend(shell: shell, application: app, title: "List stress")
        self.frontend = frontend
        do { try shell.navigate(to: "/") } catch { fail(error) }
        frontend.window.afterFirstFrame { [weak self] in self?.insertRows() }
        frontend.window.present()
    }

    private func insertRows() {
        guard let frontend else { return }
        let start = DispatchTime.now().uptimeNanoseconds
        var seed: UInt64 = 0x2545_F491_4F6C_DD1D
        let initial = source.count
        do {
            for index in 0..<inserts {
                seed = seed &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
                try source.insert("new \(index)", at: Int((seed >> 33) % UInt64(initial + index + 1)))
            }
        } catch {
            return fail(error)
        }
        frontend.window.afterNextFrame { [app] in
            let elapsed = Double(DispatchTime.now().uptimeNanoseconds - start) / 1e6
            print("liststress: \(String(format: "%.3f", elapsed)) ms")
            app.quit()
        }
    }

    private func fail(_ error: any Error) {
        FileHandle.standardError.write(Data("liststress-window: \(error)\n".utf8))
        app.quit()
    }
}

/// The rows the page shows, provided on the shell.
@MainActor
private final class StressRows {
    let source: ArraySource<String>
    init(source: ArraySource<String>) { self.source = source }
}

/// `/`: the rows as a list.
private final class StressPage: PageController {
    required init(values: RouteValues, shell: Shell) {
        super.init(values: values, shell: shell)
        title = "List stress"
        if let rows = shell.resolve(StressRows.self) { content = .table(TableContainer.list(rows.source)) }
    }
}
