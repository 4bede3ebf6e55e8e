import Foundation
import TrellisCore
import XCTest

/// A note's text over 1 MiB in the real window: 10 MB pasted into the editor is refused at save
/// with the limit and the size, while the window keeps answering and painting; 1 MiB is saved
/// and listed. No step is timed: each reply has a deadline only so that a window that never
/// answers fails the test instead of hanging it.
final class OversizedNoteWindowTests: XCTestCase {
    /// A deadline for one step on 10 MB of text, generous for a loaded machine.
    private let slowStep: TimeInterval = 300

    func testATenMegabyteTextIsRefusedAndTheWindowKeepsResponding() throws {
        let app = try AppDriver(arguments: ["/notes"])
        try app.send("page-action new")
        try app.send("field title A long log")
        try app.send("field body " + String(repeating: "0123456789", count: 1_048_576), timeout: slowStep)
        try app.send("press save")
        // While the text is checked (off the main thread), the main loop answers a command
        // that needs no frame, then paints the frames the dumps wait for.
        XCTAssertEqual(try app.send("stats")["ok"], true, "a ping through the main loop is answered")
        let refused = try app.dump(until: { $0["message"]?.stringValue != nil }, timeout: slowStep)
        XCTAssertEqual(refused["message"], "A note's text may have at most 1048576 bytes; this one has 10485760.")
        XCTAssertEqual(refused["path"], "/notes/new", "the editor stays, with what was typed")
        XCTAssertEqual(refused["fields"]?["body"]?.stringValue?.utf8.count, 10_485_760, "nothing typed is lost")
        let next = try app.send("dump", timeout: slowStep)
        let frames = try [refused, next].map { try XCTUnwrap($0["frame"]?.intValue) }
        XCTAssertGreaterThan(frames[1], frames[0], "with 10 MB in the editor, new frames are still painted")

        try app.send("field body " + String(repeating: "я", count: 524_288), timeout: slowStep)
        try app.send("press save")
        let saved = try app.dump(until: { $0["path"] == "/notes" && ($0["rows"]?.arrayValue?.count ?? 0) == 1 }, timeout: slowStep)
        XCTAssertEqual(saved["rows"]?[0]?["text"]?.stringValue?.hasPrefix("A long log · яяя"), true)
        XCTAssertEqual(app.finish(), 0)
    }
}
