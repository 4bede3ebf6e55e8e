import Foundation
import TrellisCore
import XCTest

/// `trellis --plugin-dev DIR`, from outside: a plugin written by `trellis plugin new --c` is opened
/// in the window, its Add button pressed, then its source edited and rebuilt with its `make`:
/// the window, still open, shows the new build's page, and again after a second edit (the
/// watcher keeps watching). Before, `trellis` released its watchers as soon as it made them, and
/// no rebuild ever reached the window; tests that kept a watcher of their own did not see it.
final class PluginDevWindowTests: XCTestCase {
    func testEachRebuildOfAGeneratedPluginShowsInTheOpenWindow() throws {
        try AppDriver.requireDisplay()
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("trellis-plugin-dev-\(UUID().uuidString)")
        let folder = root.appendingPathComponent("Shelf")
        try FileManager.default.createDirectory(at: root, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: root) }
        let written = try CommandRunner.run(AppDriver.executable, ["plugin", "new", "Shelf", "--c", folder.path])
        XCTAssertEqual(written.status, 0, written.stderr)
        try make(in: folder)

        let app = try AppDriver(arguments: ["--plugin-dev", folder.path, "/shelf"])
        try app.dump { $0["title"] == "Shelf" && $0["actions"] == ["plugin-shelf-add"] }
        try app.send("page-action plugin-shelf-add")
        try app.dump { $0["rows"]?[0]?["text"]?.stringValue?.hasPrefix("Item 1") == true }
        try app.screenshot("plugin-dev-before")

        for edit in 1...2 {
            let source = folder.appendingPathComponent("shelf.c")
            var text = try String(contentsOf: source, encoding: .utf8)
            for (pattern, replacement) in [(#"static char rows\[1000\]\[2\]\[64\][^;]*;"#, "static char rows[1000][2][64] = {{\"Edited \(edit)\", \"\"}};"),
                                           (#"static int count[^;]*;"#, "static int count = 1;")] {
                let range = try XCTUnwrap(text.range(of: pattern, options: .regularExpression), "the template has no \(pattern)")
                text.replaceSubrange(range, with: replacement)
            }
            try Data(text.utf8).write(to: source)
            try make(in: folder)
            let shown = try app.dump(until: { $0["rows"]?[0]?["text"]?.stringValue?.hasPrefix("Edited \(edit)") == true }, timeout: 60)
            XCTAssertEqual(shown["path"], "/shelf", "the window stayed on the plugin's page")
        }
        try app.screenshot("plugin-dev-after")
        XCTAssertEqual(app.finish(), 0)
    }

    func testAPluginBrokenAtStartIsToldAndFixedUnderPluginDevGetsItsPageAndMenuItem() throws {
        try AppDriver.requireDisplay()
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("trellis-plugin-dev-\(UUID().uuidString)")
        let folder = root.appendingPathComponent("Shelf")
        try FileManager.default.createDirectory(at: root, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: root) }
        let written = try CommandRunner.run(AppDriver.executable, ["plugin", "new", "Shelf", "--c", folder.path])
        XCTAssertEqual(written.status, 0, written.stderr)
        try make(in: folder)
        let manifest = folder.appendingPathComponent("plugin.json")
        let good = try String(contentsOf: manifest, encoding: .utf8)
        try Data(good.replacingOccurrences(of: #""version": "0.1.0""#, with: #""version": 1"#).utf8).write(to: manifest)

        let app = try AppDriver(arguments: ["--plugin-dev", folder.path], path: "/")
        let told = try app.dump { $0["notice"]?["text"]?.stringValue?.contains("shelf") == true }
        XCTAssertTrue(told["notice"]?["text"]?.stringValue?.contains("version") == true, "the notice says what is wrong: \(told)")
        XCTAssertFalse(try app.send("menu")["items"]?.arrayValue?.contains { $0["label"] == "Shelf" } ?? true)

        try Data(good.utf8).write(to: manifest)
        try app.send("menu", until: { $0["items"]?.arrayValue?.contains { $0["label"] == "Shelf" } == true }, timeout: 60)
        try app.send("go /shelf")
        try app.dump { $0["title"] == "Shelf" && $0["actions"] == ["plugin-shelf-add"] }
        try app.send("page-action plugin-shelf-add")
        try app.dump { $0["status"]?.stringValue?.contains("Shelf: 1 item") == true }
        XCTAssertEqual(app.finish(), 0)
    }

    private func make(in folder: URL) throws {
        let built = try CommandRunner.tool("make", ["-s", "-C", folder.path])
        XCTAssertEqual(built.status, 0, "make: \(built.stdout)\(built.stderr)")
    }
}
