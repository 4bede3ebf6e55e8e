import Foundation
import TrellisCore

/// `plugin-page-1m` (part of `trellis-bench plugins`, with a display): the demo window opened on
/// a plugin's table page of 1,000,000 rows (`Baselines/big-table-plugin.c`, in a process of its
/// own, rows fetched by range over the bus) until its first rows show, against a C program that
/// fills a GtkStringList with 1,000,000 rows and paints its first frame. Ours: from spawning
/// `trellis --automation --plugin-dir … /big` to the first `dump` reply whose first row reads
/// "Row 0" (polled every 5 ms; the process's teardown is not counted). Theirs: the whole
/// process. Alternating runs, medians; goal ≥ 1.5.
enum PluginPageBenchmark {
    static func run(runs: Int = 5) throws {
        let trellis = try ProcessRunner.sibling("trellis")
        let baseline = try ProcessRunner.buildBaseline("stringlist-window")
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("trellis-bench-page-\(getpid())")
        defer { try? FileManager.default.removeItem(at: root) }
        try buildPlugin(in: root.appendingPathComponent("plugins/big"))
        var ours: [Double] = []
        var theirs: [Double] = []
        for run in 0...runs {  // run 0 warms the caches and is not counted
            let seconds = try firstRows(trellis, pluginDirectory: root.appendingPathComponent("plugins"),
                                        home: root.appendingPathComponent("home-\(run)"))
            let baselineSeconds = try ProcessRunner.measure(baseline, ["1000000"], environment: ProcessRunner.guiEnvironment).seconds
            if run > 0 {
                ours.append(seconds)
                theirs.append(baselineSeconds)
            }
        }
        let ourTime = Report.median(ours) * 1000
        let theirTime = Report.median(theirs) * 1000
        Report.figure("plugin-page-1m-trellis", ourTime, "ms")
        Report.figure("plugin-page-1m-stringlist", theirTime, "ms")
        Report.ratio("plugin-page-1m", theirTime / ourTime)
    }

    /// Compiles the big-table plugin and writes its manifest into `folder`.
    private static func buildPlugin(in folder: URL) throws {
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let here = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        let source = here.appendingPathComponent("Baselines/big-table-plugin.c").path
        let include = here.appendingPathComponent("../TrellisPluginABI/include").standardizedFileURL.path
        let library = folder.appendingPathComponent("libbig.so").path
        let compiled = try ProcessRunner.measure("/bin/sh", ["-c", "cc -O2 -shared -fPIC -I '\(include)' -o '\(library)' '\(source)'"])
        guard compiled.status == 0 else { throw ProcessRunner.Failure.exit(path: "cc", status: compiled.status) }
        try Data("""
            {"id": "big", "name": "Big Table", "version": "1", "abiVersion": 2, "library": "libbig.so", "permissions": {},
             "routes": [{"pattern": "/big", "title": "A Million Rows", "content": "table", "public": true}]}
            """.utf8).write(to: folder.appendingPathComponent("plugin.json"))
    }

    /// Seconds from spawning the window on `/big` to its first rows on screen.
    private static func firstRows(_ trellis: String, pluginDirectory: URL, home: URL) throws -> Double {
        let window = try AutomatedWindow(trellis, arguments: ["--plugin-dir", pluginDirectory.path, "/big"], home: home)
        while ContinuousClock.now - window.started < .seconds(60) {
            guard let reply = window.send("dump") else { break }
            if reply["rows"]?[0]?["text"]?.stringValue?.hasPrefix("Row 0") == true {
                return (ContinuousClock.now - window.started) / .seconds(1)
            }
            Thread.sleep(forTimeInterval: 0.005)
        }
        throw BenchError.missing("the plugin page's first rows within 60 s")
    }
}
