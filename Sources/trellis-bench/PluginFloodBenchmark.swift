import Foundation
import TrellisCore

/// `plugin-flood-frame-gap` (part of `trellis-bench plugins`, with a display): the demo window,
/// its activity spinner turning (a frame every 16.7 ms at 60 Hz, when nothing holds the GTK
/// thread up), on the page of a plugin written to flood (`Baselines/flood-plugin.c`, in a process
/// of its own), while the plugin floods one kind of call for 2 s from a thread of its own:
/// navigations, 1 MB page texts, status items, triggers, log lines, watches, stderr. The figure
/// of each kind is the longest gap between two painted frames meanwhile (GdkFrameClock
/// `after-paint`), and `plugin-flood-frame-gap` the longest of all; the window is sent a `dump`
/// every 50 ms and must answer each. Goal ≤ 50 ms. `plugin-flood-frame-gap-none` is the same
/// measurement with the plugin sending nothing: the floor of this display (under Xvfb, GTK's
/// frame clock paints about every 50 ms whatever the load).
enum PluginFloodBenchmark {
    static let kinds = ["navigate", "page", "status", "trigger", "log", "watch", "stderr"]

    static func run() throws {
        let trellis = try ProcessRunner.sibling("trellis")
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("trellis-bench-flood-\(getpid())")
        defer { try? FileManager.default.removeItem(at: root) }
        try buildPlugin(in: root.appendingPathComponent("plugins/flood"))
        // The floor: the same window, spinner and dumps, the plugin sending nothing.
        let floor = try frameGap(trellis, flooding: "none", pluginDirectory: root.appendingPathComponent("plugins"),
                                 home: root.appendingPathComponent("home-none"))
        Report.figure("plugin-flood-frame-gap-none", floor, "ms")
        var longest = 0.0
        for kind in kinds {
            let gap = try frameGap(trellis, flooding: kind, pluginDirectory: root.appendingPathComponent("plugins"),
                                   home: root.appendingPathComponent("home-\(kind)"))
            Report.figure("plugin-flood-frame-gap-\(kind)", gap, "ms")
            longest = max(longest, gap)
        }
        Report.figure("plugin-flood-frame-gap", longest, "ms")
    }

    /// Compiles the flood plugin and writes its manifest into `folder`.
    private static func buildPlugin(in folder: URL) throws {
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let here = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        let source = here.appendingPathComponent("Baselines/flood-plugin.c").path
        let include = here.appendingPathComponent("../TrellisPluginABI/include").standardizedFileURL.path
        let library = folder.appendingPathComponent("libflood.so").path
        let compiled = try ProcessRunner.measure("/bin/sh", ["-c", "cc -O2 -shared -fPIC -pthread -I '\(include)' -o '\(library)' '\(source)'"])
        guard compiled.status == 0 else { throw ProcessRunner.Failure.exit(path: "cc", status: compiled.status) }
        try Data("""
            {"id": "flood", "name": "Flood", "version": "1", "abiVersion": 2, "library": "libflood.so",
             "permissions": {"navigate": ["/flood"]},
             "statusItems": [{"id": "load", "title": "Load"}],
             "routes": [{"pattern": "/flood", "title": "Flood", "content": "text", "public": true}]}
            """.utf8).write(to: folder.appendingPathComponent("plugin.json"))
    }

    /// The longest gap between painted frames, in ms, while the plugin floods `kind` for 2 s.
    private static func frameGap(_ trellis: String, flooding kind: String, pluginDirectory: URL, home: URL) throws -> Double {
        let window = try AutomatedWindow(trellis, arguments: ["--plugin-dir", pluginDirectory.path, "/flood"], home: home)
        let opened = ContinuousClock.now
        while window.send("dump")?["text"]?.stringValue != "Flooding." {
            guard ContinuousClock.now - opened < .seconds(60) else { throw BenchError.missing("the flood plugin's page within 60 s") }
            Thread.sleep(forTimeInterval: 0.01)
        }
        _ = window.send(#"trigger activity:changed {"active": true}"#)
        _ = window.send("frame-gaps start")
        _ = window.send(#"trigger flood:go {"kind": "\#(kind)"}"#)
        let flooding = ContinuousClock.now
        while ContinuousClock.now - flooding < .seconds(2) {
            guard window.send("dump")?["ok"] == true else { throw BenchError.missing("an answer to dump while the plugin floods \(kind)") }
            Thread.sleep(forTimeInterval: 0.05)
        }
        _ = window.send("trigger flood:stop")
        guard let gaps = window.send("frame-gaps"), let milliseconds = gaps["longestMs"]?.doubleValue,
              (gaps["frames"]?.intValue ?? 0) > 10 else {
            throw BenchError.missing("frames painted while the plugin flooded \(kind)")
        }
        _ = window.send("quit")
        return milliseconds
    }
}
