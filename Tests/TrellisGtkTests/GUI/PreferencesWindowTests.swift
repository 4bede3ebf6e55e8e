import Foundation
import TrellisCore
import TrellisTesting
import XCTest

/// Preferences edited as a person edits them — clicks on the fields AT-SPI shows, keys typed
/// into them — one field of every style: a choice (the drop-down whose change once crashed the
/// app), a number, a position, a path, a text and a toggle. Each change is stored, refused ones say
/// why on the field at fault, and the app stays up throughout.
final class PreferencesWindowTests: XCTestCase {
    /// The plugin's stored settings (nil before the first change).
    private func stored(_ plugin: String, in app: AppDriver) -> JSONValue? {
        let file = app.home.appendingPathComponent("config/trellis/plugin-settings/\(plugin).json")
        return (try? Data(contentsOf: file)).flatMap { try? JSONValue(jsonData: $0) }
    }

    /// Waits until the stored settings of `plugin` satisfy `condition`.
    @discardableResult
    private func stored(_ plugin: String, in app: AppDriver, until condition: (JSONValue?) -> Bool,
                        file: StaticString = #filePath, line: UInt = #line) throws -> JSONValue? {
        let deadline = Date().addingTimeInterval(testDeadlineSeconds)
        var value = stored(plugin, in: app)
        while !condition(value) && Date() < deadline {
            try app.send("dump")  // the app is alive and answering
            value = stored(plugin, in: app)
        }
        if !condition(value) { XCTFail("\(plugin)'s settings never became as expected: \(value?.jsonString ?? "none")", file: file, line: line) }
        return value
    }

    func testEveryStyleOfFieldIsEditedWithTheMouseAndKeyboardAndTakesEffect() throws {
        let app = try AppDriver(path: "/")
        try app.send("dump")
        // Tall enough to show every field without scrolling (the screen is 800 pixels high).
        try app.send("resize 900 780")
        try app.dump { ($0["height"]?.intValue ?? 0) > 700 }
        let input = try RealInput(windowTitled: "^Trellis$")
        try input.press("ctrl+comma")
        try app.dump { $0["path"] == "/settings" && $0["fields"]?["location/source"] != nil }
        let client = try AccessibilityClient(app)

        // A choice: its titles, not its values; chosen from the drop-down's list by keyboard.
        XCTAssertEqual(try app.send("dump")["fields"]?["location/source"], "The app’s choice")
        try input.click(try client.find("combo box", "Positions from")["extents"])
        try input.press("Down", "Return")
        try app.dump { $0["fields"]?["location/source"] == "The fixed position below" }
        try stored("location", in: app) { $0?["source"] == "fixed" }

        // A number: typed over.
        try input.click(try client.find("spin button", "Update every (seconds)")["extents"])
        try input.press("ctrl+a")
        try input.type("7")
        try input.press("Tab")
        try stored("location", in: app) { $0?["interval"] == 7 }

        // A position: "north pole" is refused, on its field, and not stored; a real one is.
        try input.click(try client.find("text", "Fixed position")["extents"])
        try input.press("ctrl+a")
        try input.type("north pole")
        let refused = try app.dump { $0["message"]?.stringValue?.contains("must be a latitude from -90 to 90") == true }
        XCTAssertEqual(refused["fields"]?["location/position"], "north pole", "what was typed stays")
        let field = try client.find("text", "Fixed position", until: { $0["states"]?.arrayValue?.contains("invalid") == true })
        XCTAssertTrue(field["description"]?.stringValue?.contains("must be a latitude") == true, "\(field)")
        XCTAssertNil(stored("location", in: app)?["position"], "a refused position is not stored")
        try input.press("ctrl+a")
        try input.type("40.7128, -74.006")
        try app.dump { $0["message"] == .null }
        try stored("location", in: app) { $0?["position"] == "40.7128, -74.006" }
        try client.find("text", "Fixed position", until: { $0["states"]?.arrayValue?.contains("invalid") == false })

        // A path: a relative one is refused, an absolute one stored.
        try input.click(try client.find("text", "Track file")["extents"])
        try input.type("tracks/walk.json")
        try app.dump { $0["message"]?.stringValue?.contains("must be an absolute path") == true }
        try input.press("ctrl+a")
        try input.type("/tmp/walk.json")
        try app.dump { $0["message"] == .null }
        try stored("location", in: app) { $0?["track"] == "/tmp/walk.json" }

        // A text: the Template plugin's message, typed over.
        try input.click(try client.find("text", "Message")["extents"])
        try input.press("ctrl+a")
        try input.type("Good morning")
        try input.press("Tab")
        try stored("template", in: app) { $0?["message"] == "Good morning" }

        // A toggle: the Template plugin's page says its message in capitals from then on.
        try input.click(try client.find("check box", "In capital letters")["extents"])
        try stored("template", in: app) { $0?["capitals"] == true }
        try app.send("go /template")
        try app.dump { $0["text"] == "GOOD MORNING" }
        XCTAssertEqual(app.finish(), 0, "the app lived through every change")
    }
}
