import Testing
@testable import TrellisCore
import TrellisTesting

@Suite("Message patterns")
struct MessagePatternTests {
    static let cases: [(pattern: String, message: String, matches: Bool)] = [
        ("network:on", "network:on", true),
        ("network:on", "network:off", false),
        ("network:on", "network:on:extra", false),
        ("network:*", "network:on", true),
        ("network:*", "network:", true),
        ("network:*", "network", false),
        ("network:*", "networking:on", false),
        ("*", "", true),
        ("*", "anything:at:all", true),
        ("*:failed", "request:failed", true),
        ("*:failed", "request:failed:again", false),
        ("request:*:done", "request:42:done", true),
        ("request:*:done", "request::done", true),
        ("request:*:done", "request:done", false),
        ("a*b*c", "abc", true),
        ("a*b*c", "aXbYc", true),
        ("a*b*c", "acb", false),
        ("a*a", "a", false),
        ("a*a", "aa", true),
        ("**", "x", true),
        ("заметка:*", "заметка:сохранена", true),
        ("*:сохранена", "заметка:сохранена", true),
        ("заметка:*", "note:saved", false),
    ]

    @Test("wildcard syntax: * matches any run of characters", arguments: cases)
    func matching(_ testCase: (pattern: String, message: String, matches: Bool)) {
        let matches: Bool
        switch MessagePattern(testCase.pattern) {
        case .exact(let name): matches = name == testCase.message
        case .wildcard(let glob): matches = glob.matches(testCase.message)
        }
        #expect(matches == testCase.matches, "\(testCase.pattern) ~ \(testCase.message)")
    }

    @Test("a pattern without a star is exact, with one is a wildcard")
    func classification() {
        #expect(MessagePattern("network:on") == .exact("network:on"))
        if case .wildcard = MessagePattern("network:*") {} else { Issue.record("expected a wildcard") }
    }

    @Test("wildcard watches on the bus receive every matching message and only those")
    func wildcardWatchOnBus() {
        let bus = EventBus()
        let owner = WatchOwner()
        let recorder = Trace()
        bus.watch("network:*", owner: owner) { _, event in recorder.record(event.message) }

        bus.trigger("network:on")
        bus.trigger("network:off")
        bus.trigger("note:saved")
        bus.trigger("network:on")

        #expect(recorder.all == ["network:on", "network:off", "network:on"])
    }

    @Test("a wildcard added after a message was cached still receives it")
    func wildcardAddedAfterCaching() {
        let bus = EventBus()
        let owner = WatchOwner()
        let recorder = Trace()
        bus.watch("x:*", owner: owner) { _, event in recorder.record("first \(event.message)") }
        bus.trigger("x:1")
        bus.watch("*:1", owner: owner) { _, event in recorder.record("second \(event.message)") }
        bus.trigger("x:1")
        bus.unwatch(owner: owner, message: "x:*")
        bus.trigger("x:1")

        #expect(recorder.all == ["first x:1", "first x:1", "second x:1", "second x:1"])
    }

    @Test("many distinct message names stay correct across route-cache resets")
    func manyDistinctNames() {
        let bus = EventBus()
        let owner = WatchOwner()
        let counter = AtomicCounter()
        bus.watch("item:*", owner: owner) { _, _ in counter.increment() }
        let total = WatchTable.routeCacheLimit * 2 + 10
        for index in 0..<total { bus.trigger("item:\(index)") }
        for index in 0..<total { bus.trigger("other:\(index)") }
        #expect(counter.count == total)
    }
}
