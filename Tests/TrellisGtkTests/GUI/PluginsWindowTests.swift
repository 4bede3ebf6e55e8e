import Foundation
import TrellisCore
import XCTest

/// Plugins in the real window: both demo plugins load, the spinner is driven through the
/// network-activity plugin, and the status area shows the location plugin's updates.
final class PluginsWindowTests: XCTestCase {
    func testPluginsLoadDriveTheSpinnerAndShowTheLocation() throws {
        let app = try AppDriver(arguments: ["/plugins"])
        let screen = try app.dump { ($0["rows"]?.arrayValue?.count ?? 0) >= 2 }
        let rows = screen["rows"]?.arrayValue?.compactMap { $0["text"]?.stringValue } ?? []
        XCTAssertTrue(rows.contains { $0.hasPrefix("Network Activity · 1.0.0 · loaded") }, "\(rows)")
        XCTAssertTrue(rows.contains { $0.hasPrefix("Location · 1.0.0 · loaded") }, "\(rows)")
        try app.send("trigger network:on")
        XCTAssertEqual(try app.send("dump")["spinner"], true)
        try app.send("trigger network:off")
        XCTAssertEqual(try app.send("dump")["spinner"], false)
        let located = try app.dump(until: { $0["status"]?.stringValue?.hasPrefix("Location: ") == true }, timeout: 15)
        XCTAssertNotNil(located["status"]?.stringValue?.range(of: #"^Location: -?\d+\.\d{5}, -?\d+\.\d{5} ±\d+ m$"#, options: .regularExpression),
                        "\(located["status"] ?? nil)")
        try app.screenshot("plugins")
        XCTAssertEqual(app.finish(), 0)
    }
}
