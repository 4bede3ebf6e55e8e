import Foundation
import TrellisCore
import XCTest

/// A note's text over 1 MiB in the real window: 10 MB pasted into the editor is refused at save
/// with the limit and the size, and the window keeps answering; 1 MiB is saved and listed.
final class OversizedNoteWindowTests: XCTestCase {
    func testATenMegabyteTextIsRefusedAndTheWindowKeepsResponding() throws {
        let app = try AppDriver(arguments: ["/notes"])
        try app.send("page-action new")
        try app.send("field title A long log")

        var start = Date()
        try app.send("field body " + String(repeating: "0123456789", count: 1_048_576))
        try app.send("press save")
        let refused = try app.dump { $0["message"]?.stringValue != nil }
        XCTAssertLessThan(Date().timeIntervalSince(start), 15, "10 MB in the editor and a refusal, in seconds, not minutes")
        XCTAssertEqual(refused["message"], "A note's text may have at most 1048576 bytes; this one has 10485760.")
        XCTAssertEqual(refused["path"], "/notes/new", "the editor stays, with what was typed")

        start = Date()
        try app.send("field body " + String(repeating: "я", count: 524_288))
        try app.send("press save")
        let saved = try app.dump { $0["path"] == "/notes" && ($0["rows"]?.arrayValue?.count ?? 0) == 1 }
        XCTAssertLessThan(Date().timeIntervalSince(start), 15)
        XCTAssertEqual(saved["rows"]?[0]?["text"]?.stringValue?.hasPrefix("A long log · яяя"), true)
        XCTAssertEqual(app.finish(), 0)
    }
}
