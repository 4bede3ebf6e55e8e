import ArgumentParser
import Foundation
import TrellisCore

/// `typing`: how long the window takes to show the result of each keystroke in its search
/// field — the catalog (205 rows) and 1,000,000 synthetic rows — driven through the automation
/// channel: `search` with one more letter each time, timed to its reply, which comes at the
/// first frame painted after the list was filtered. The baseline is the same search on the
/// same rows without a window (`TableContainer.searchText` in this process), so the ratio shows
/// what the window adds (for 1,000,000 rows; the catalog's search alone takes microseconds, and
/// its figure is mostly the frame). Medians and 95th percentiles (nearest rank) over five
/// rounds of the keystrokes of "фэнтези" and "row 12345", after one round to warm up. Each
/// `search` adds the new letter at the end of the field, as typing does.
///
/// Two things keep the figure about Trellis rather than about GTK's frame clock: keystrokes
/// come ``pause`` apart (50 ms, 20 keys a second, faster than anyone types), since GTK paints
/// at most one frame per 16.7 ms and a keystroke sent right after a frame would wait for the
/// next slot; and the cursor does not blink (`gtk-cursor-blink=false` in the window's
/// settings.ini), since GTK 4 fades the cursor in and out with a frame every 16.7 ms, and a
/// keystroke would then wait for the next of those frames however soon its result was ready.
struct TypingBenchmark: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "typing",
        abstract: "Time per keystroke in the window's search field, vs the same search without a window."
    )

    @Flag(help: "With the accessibility bus running, as on a desktop with a screen reader (run under dbus-run-session; at-spi2-core starts the bus).")
    var accessibility = false

    @Option(help: "Milliseconds between a keystroke's answer and the next keystroke.")
    var pause = 50

    func run() throws {
        try ProcessRunner.requireDisplay()
        if accessibility { try ProcessRunner.requireAccessibilityBus() }
        let trellis = try ProcessRunner.sibling("trellis")
        let home = FileManager.default.temporaryDirectory.appendingPathComponent("trellis-bench-typing-\(getpid())")
        defer { try? FileManager.default.removeItem(at: home) }
        var worst: (p50: Double, p95: Double) = (0, 0)
        for (name, arguments, word) in [("catalog", ["/catalog"], "фэнтези"), ("1m", ["/catalog", "--rows", "1000000"], "row 12345")] {
            let windowHome = home.appendingPathComponent(name)
            let settings = windowHome.appendingPathComponent("config/gtk-4.0")
            try FileManager.default.createDirectory(at: settings, withIntermediateDirectories: true)
            try Data("[Settings]\ngtk-cursor-blink=false\n".utf8).write(to: settings.appendingPathComponent("settings.ini"))
            let window = try AutomatedWindow(trellis, arguments: arguments, home: windowHome, accessibility: accessibility)
            guard window.send("dump")?["ok"] == true else { throw BenchError.missing("the window") }
            var milliseconds: [Double] = []
            // Five measured rounds (the first warms up): p95 is then the third-worst of 45
            // keystrokes on 1,000,000 rows, not the single worst of 18.
            for round in 0..<6 {
                for length in 1...word.count {
                    let text = String(word.prefix(length))
                    Thread.sleep(forTimeInterval: Double(pause) / 1000)
                    let start = ContinuousClock.now
                    guard window.send("search \(text)")?["ok"] == true else { throw BenchError.missing("a reply to search \(text)") }
                    if round > 0 { milliseconds.append((ContinuousClock.now - start) / .milliseconds(1)) }
                }
                Thread.sleep(forTimeInterval: Double(pause) / 1000)
                _ = window.send("search ")
            }
            let ours = Report.median(milliseconds)
            let p95 = Report.percentile(milliseconds, 0.95)
            Report.figure("typing-\(name)-window", ours, "ms")
            Report.figure("typing-\(name)-p95", p95, "ms")
            worst = (max(worst.p50, ours), max(worst.p95, p95))
            let baseline = try MainActor.assumeIsolated { try Self.withoutWindow(rows: name == "1m" ? 1_000_000 : nil, word: word) }
            Report.figure("typing-\(name)-no-window", baseline, "ms")
            // The catalog's search alone takes microseconds: a ratio to it would say nothing.
            if name == "1m" { Report.ratio("typing-\(name)", baseline / ours) }
        }
        // The worse of the two lists (goal: p95 ≤ 16.7 ms, a frame at 60 Hz).
        Report.figure("typing-p50", worst.p50, "ms")
        Report.figure("typing-p95", worst.p95, "ms")
    }

    /// Median milliseconds per keystroke of the same search on a container of the same rows.
    @MainActor
    static func withoutWindow(rows: Int?, word: String) throws -> Double {
        let lines: [String]
        if let rows {
            lines = (0..<rows).map { "Row \($0)" }
        } else {
            let data = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("../../data")
            lines = try String(contentsOf: data.appendingPathComponent("catalog-genres.ru.txt").standardizedFileURL, encoding: .utf8)
                .split(separator: "\n").map(String.init)
        }
        let container = TableContainer(source: ArraySource(lines), searchable: true)
        var milliseconds: [Double] = []
        for round in 0..<3 {
            for length in 1...word.count {
                let seconds = Report.time { container.searchText = String(word.prefix(length)) }
                if round > 0 { milliseconds.append(seconds * 1000) }
            }
            container.searchText = ""
        }
        return Report.median(milliseconds)
    }
}
