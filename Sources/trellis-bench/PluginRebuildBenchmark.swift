import ArgumentParser
import Foundation
import TrellisCore

/// `trellis-bench plugin-rebuild` (needs a display): a plugin author's edit-to-window cycle. A
/// plugin written by `trellis plugin new Shelf` (Swift) and `… --c` is built once and opened in
/// the window with `trellis --plugin-dev DIR /shelf`; then, each run, its source is edited (the
/// page's first row becomes "Edited N") and built with the author's command (`swift build`,
/// `make`), and the clock stops at the first `dump` whose first row on screen reads "Edited N":
/// build, the dev watcher seeing the new library, the plugin's new process, the page shown again
/// and painted. Medians of `runs` edits after one not counted. Goals: Swift ≤ 3 s, C ≤ 1 s.
struct PluginRebuildBenchmark: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "plugin-rebuild",
        abstract: "Edit → the running window shows the change, with --plugin-dev: a Swift plugin (swift build) and a C plugin (make)."
    )

    @Option(help: "Edits to time for each language, after one not counted.")
    var runs = 5

    func run() throws {
        let environment = ProcessEnvironment.current
        guard environment["DISPLAY"] != nil || environment["WAYLAND_DISPLAY"] != nil else {
            throw BenchError.missing("a display (run it under xvfb-run)")
        }
        let trellis = try ProcessRunner.sibling("trellis")
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("trellis-bench-rebuild-\(getpid())")
        defer { try? FileManager.default.removeItem(at: root) }
        for language in Language.allCases {
            let (seconds, builds) = try measure(language, trellis: trellis, root: root.appendingPathComponent(language.rawValue))
            Report.figure("plugin-rebuild-\(language.rawValue)", Report.median(seconds), "s")
            Report.figure("plugin-rebuild-\(language.rawValue)-max", seconds.max() ?? 0, "s")
            Report.figure("plugin-rebuild-\(language.rawValue)-build", Report.median(builds), "s")
        }
    }

    enum Language: String, CaseIterable {
        case swift, c

        /// The author's build command in `folder`.
        func build(_ folder: URL) -> (String, [String]) {
            switch self {
            case .swift: return ("/usr/bin/env", ["swift", "build", "--package-path", folder.path])
            case .c: return ("/usr/bin/env", ["make", "-s", "-C", folder.path])
            }
        }

        /// The source file and the edits that make the page's first row read `text`.
        func edit(_ folder: URL, firstRow text: String) throws {
            let (file, edits): (String, [(String, String)]) = switch self {
            case .swift: ("Sources/Shelf/Shelf.swift",
                          [(#"static let rows = LockedState<\[\[String\]\]>\([^\n]*\)"#, #"static let rows = LockedState<[[String]]>([["\#(text)", ""]])"#)])
            case .c: ("shelf.c", [(#"static char rows\[1000\]\[2\]\[64\][^;]*;"#, #"static char rows[1000][2][64] = {{"\#(text)", ""}};"#),
                                  (#"static int count[^;]*;"#, "static int count = 1;")])
            }
            let url = folder.appendingPathComponent(file)
            var source = try String(contentsOf: url, encoding: .utf8)
            for (pattern, replacement) in edits {
                guard let range = source.range(of: pattern, options: .regularExpression) else {
                    throw BenchError.missing("the line \(pattern) in the template's \(file)")
                }
                source.replaceSubrange(range, with: replacement)
            }
            try Data(source.utf8).write(to: url)
        }
    }

    /// Seconds of each timed edit of a new `language` plugin in `folder`, to the window and of
    /// its build alone.
    private func measure(_ language: Language, trellis: String, root: URL) throws -> (window: [Double], build: [Double]) {
        let folder = root.appendingPathComponent("Shelf")
        try FileManager.default.createDirectory(at: root, withIntermediateDirectories: true)
        _ = try ProcessRunner.measure(trellis, ["plugin", "new", "Shelf", "--\(language.rawValue)", folder.path], capture: .output)
        let (tool, arguments) = language.build(folder)
        _ = try ProcessRunner.measure(tool, arguments, capture: .outputAndErrors)  // the first build: the SDK, once
        let window = try AutomatedWindow(trellis, arguments: ["--plugin-dev", folder.path, "/shelf"], home: root.appendingPathComponent("home"))
        var seconds: [Double] = []
        var builds: [Double] = []
        for run in 0...runs {
            let text = "Edited \(run)"
            try language.edit(folder, firstRow: text)
            let saved = ContinuousClock.now
            let build = try ProcessRunner.measure(tool, arguments, capture: .outputAndErrors)
            while true {
                guard ContinuousClock.now - saved < .seconds(60), let reply = window.send("dump") else {
                    throw BenchError.missing("the \(language.rawValue) plugin's page showing \"\(text)\" within 60 s of the edit")
                }
                if reply["rows"]?[0]?["text"]?.stringValue?.hasPrefix(text) == true { break }
                Thread.sleep(forTimeInterval: 0.005)
            }
            if run > 0 {
                seconds.append((ContinuousClock.now - saved) / .seconds(1))
                builds.append(build.seconds)
            }
        }
        return (seconds, builds)
    }
}
