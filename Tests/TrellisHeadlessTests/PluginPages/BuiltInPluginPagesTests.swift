import Foundation
import Testing
import TrellisCore
import TrellisHeadless
import TrellisTesting

/// The pages the shipped plugins contribute, in the demo, headless: Location's live history
/// and NetworkActivity's recent requests (from the `network:on`/`off` TrellisSync announces).
@MainActor
@Suite("Built-in plugin pages", .serialized)
struct BuiltInPluginPagesTests {
    @Test("/network lists each request when it ends, newest first: method, URL, outcome, duration")
    func networkRequests() async throws {
        let (shell, screen) = try await Fixtures.demo()
        try shell.navigate(to: "/network")
        #expect(await eventually { screen.table != nil }, "\(screen.render())")
        for (index, outcome) in ["200", "timed out"].enumerated() {
            let request: JSONValue = ["method": "GET", "url": .string("http://127.0.0.1:1/notes/\(index)"), "attempt": 1]
            shell.bus.trigger("network:on", request)
            var finished = request
            finished["outcome"] = .string(outcome)
            shell.bus.trigger("network:off", finished)
        }
        #expect(await eventually { screen.render().split(separator: "\n").filter { $0.contains("GET") }.count == 2 }, "\(screen.render())")
        let text = screen.render()
        let lines = text.split(separator: "\n").filter { $0.contains("GET") }
        #expect(lines.count == 2, "\(text)")
        #expect(lines.first?.contains("http://127.0.0.1:1/notes/1 | timed out |") == true, "newest first: \(text)")
        #expect(lines.last?.contains(#/GET \| http://127.0.0.1:1/notes/0 \| 200 \| \d+ ms/#) == true, "\(text)")
    }

    @Test("/location grows at the top with each position; Clear empties it")
    func locationHistory() async throws {
        let (shell, screen) = try await Fixtures.demo()
        try shell.navigate(to: "/location")
        #expect(await eventually { (screen.table?.container.flatCount ?? 0) >= 1 }, "\(screen.render())")
        #expect(screen.render().hasPrefix("< Location History  (Clear)"), "\(screen.render())")
        try screen.pressPageAction("plugin-location-clear-history")
        #expect(await eventually { (screen.table?.container.flatCount ?? 99) <= 1 }, "\(screen.render())")
    }
}
