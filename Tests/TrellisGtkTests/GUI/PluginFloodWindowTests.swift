import Foundation
import TrellisCore
import XCTest

/// A plugin written to flood the shell (`Sources/trellis-bench/Baselines/flood-plugin.c`, which
/// `trellis-bench plugins` times as `plugin-flood-frame-gap`), in the real window: while it
/// floods each kind of call, the window answers every automation command, keeps painting frames,
/// and is alive afterwards.
final class PluginFloodWindowTests: XCTestCase {
    func testTheWindowAnswersWhileAPluginFloodsEachKindOfCall() throws {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("trellis-flood-\(UUID().uuidString)")
        let folder = root.appendingPathComponent("flood")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: root) }
        try Data("""
            {"id": "flood", "name": "Flood", "version": "1", "abiVersion": 2, "library": "libflood.so",
             "permissions": {"navigate": ["/flood"]},
             "statusItems": [{"id": "load", "title": "Load"}],
             "routes": [{"pattern": "/flood", "title": "Flood", "content": "text", "public": true}]}
            """.utf8).write(to: folder.appendingPathComponent("plugin.json"))
        try CPlugin.compile(CommandRunner.packageRoot.appendingPathComponent("Sources/trellis-bench/Baselines/flood-plugin.c"),
                            to: folder.appendingPathComponent("libflood.so"))

        let app = try AppDriver(arguments: ["--plugin-dir", root.path], path: "/flood")
        _ = try app.dump { $0["text"] == "Flooding." }
        // The spinner turns: the window paints a frame at every tick of its clock.
        try app.send(#"trigger activity:changed {"active": true}"#)
        for kind in ["navigate", "page", "status", "trigger", "log", "watch", "stderr"] {
            try app.send("frame-gaps start")
            try app.send(#"trigger flood:go {"kind": "\#(kind)"}"#)
            var frames: [Int] = []
            for _ in 0..<10 {
                frames.append(try XCTUnwrap(try app.send("dump")["frame"]?.intValue, "the window answers while the plugin floods \(kind)"))
            }
            try app.send("trigger flood:stop")
            let gaps = try app.send("frame-gaps")
            XCTAssertGreaterThan(gaps["frames"]?.intValue ?? 0, 0, "frames painted while the plugin flooded \(kind): \(gaps)")
            XCTAssertEqual(frames, frames.sorted(), "the frame counter went back while the plugin flooded \(kind)")
        }
        XCTAssertEqual(app.finish(), 0)
    }
}
