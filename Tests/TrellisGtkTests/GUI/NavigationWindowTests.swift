import Foundation
import TrellisCore
import XCTest

/// Routes, Back, the activity spinner and keyboard accelerators in the real window.
final class NavigationWindowTests: XCTestCase {
    func testActivatingACatalogRowOpensItsDetailPageAndBackReturns() throws {
        let app = try AppDriver()
        var screen = try app.send("dump")
        XCTAssertEqual(screen["path"], "/catalog")
        XCTAssertEqual(screen["rows"]?[5]?["text"], "Фэнтези")
        try app.send("activate 5")
        screen = try app.send("dump")
        XCTAssertEqual(screen["path"], "/catalog/5")
        XCTAssertEqual(screen["title"], "Фэнтези")
        XCTAssertEqual(screen["fields"]?["name"], "Фэнтези")
        XCTAssertEqual(screen["back"], true)
        try app.screenshot("catalog-detail")
        try app.send("back")
        screen = try app.send("dump")
        XCTAssertEqual(screen["path"], "/catalog")
        XCTAssertEqual(screen["rows"]?[0]?["text"], "Любовные романы")
        try app.send("back")
        screen = try app.send("dump")
        XCTAssertEqual(screen["path"], "/")
        XCTAssertEqual(screen["back"], false, "no back button at the root")
        try app.screenshot("home")
        XCTAssertEqual(app.finish(), 0)
    }

    func testTheSpinnerShowsWhileNetworkActivityIsOn() throws {
        let app = try AppDriver()
        XCTAssertEqual(try app.send("dump")["spinner"], false)
        try app.waitForPlugins()
        // NetworkActivity answers from its own process: its activity:changed comes a moment later.
        try app.send("trigger network:on")
        XCTAssertEqual(try app.dump { $0["spinner"] == true }["spinner"], true)
        try app.screenshot("spinner")
        try app.send("trigger network:off")
        XCTAssertEqual(try app.dump { $0["spinner"] == false }["spinner"], false)
        // A stray network:off is ignored: the next network:on shows the spinner again (had the
        // stray counted, that one would only bring the count back to none).
        try app.send("trigger network:off")
        try app.send("trigger network:on")
        XCTAssertEqual(try app.dump { $0["spinner"] == true }["spinner"], true, "a stray network:off is ignored")
        XCTAssertEqual(app.finish(), 0)
    }

    func testDeepLinksOpenPublicRoutesOnlyAndBadPathsAreRefused() throws {
        let app = try AppDriver(arguments: ["/people"])
        XCTAssertEqual(try app.send("dump")["path"], "/people")
        let refused = try JSONValue(jsonString: app.sendRaw("navigate /events"))
        XCTAssertEqual(refused["ok"], false)
        XCTAssertTrue(refused["error"]?.stringValue?.contains("not a public route") ?? false)
        let bad = try JSONValue(jsonString: app.sendRaw("navigate /catalog/../etc"))
        XCTAssertEqual(bad["ok"], false)
        XCTAssertEqual(try app.send("dump")["path"], "/people", "a refused link leaves the window where it was")
        XCTAssertEqual(app.finish(), 0)
    }

    func testAnUnknownDeepLinkOpensTheHomePageWithAMessage() throws {
        let app = try AppDriver(arguments: ["/no/such/page"])
        let screen = try app.send("dump")
        XCTAssertEqual(screen["path"], "/")
        XCTAssertTrue(screen["message"]?.stringValue?.contains("/no/such/page") ?? false)
        // The message stays with the page: the plugins starting after the first frame update
        // the home page, which once took the message away within a second.
        try app.waitForPlugins()
        XCTAssertTrue(try app.send("dump")["message"]?.stringValue?.contains("/no/such/page") ?? false)
        XCTAssertEqual(app.finish(), 0)
    }

    func testANoteLinkWhoseIdIsNotAUUIDSaysWhyTheNoteCannotOpen() throws {
        let app = try AppDriver(arguments: ["/notes/5"])
        let screen = try app.send("dump")
        XCTAssertEqual(screen["path"], "/notes/5")
        XCTAssertEqual(screen["title"], "Unknown note")
        XCTAssertEqual(screen["text"], #""/notes/5": parameter "id" of /notes/:id is "5", which is not a UUID"#)
        try app.screenshot("note-id-not-a-uuid")
        XCTAssertEqual(app.finish(), 0)
    }

    func testKeyboardAcceleratorsAreBound() throws {
        let app = try AppDriver()
        XCTAssertEqual(try app.send("accels win.back")["accels"], ["<Alt>Left", "Escape"])
        XCTAssertEqual(try app.send("accels win.search")["accels"], ["<Control>f"])
        XCTAssertEqual(try app.send("accels app.quit")["accels"], ["<Control>q"])
        try app.send("action win.search")
        XCTAssertEqual(try app.send("dump")["searchActive"], true)
        try app.send("action win.back")
        XCTAssertEqual(try app.send("dump")["searchActive"], false, "Escape first closes the search bar")
        try app.send("action win.back")
        XCTAssertEqual(try app.send("dump")["path"], "/")
        XCTAssertEqual(app.finish(), 0)
    }
}
