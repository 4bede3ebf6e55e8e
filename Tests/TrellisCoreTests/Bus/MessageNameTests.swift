import Testing
@testable import TrellisCore
import TrellisTesting

@Suite("Message names are compared by UTF-8 bytes")
struct MessageNameTests {
    @Test("composed and decomposed é are two names, as keys too")
    func byteSemantics() {
        #expect(MessageName("caf\u{E9}") == MessageName("caf\u{E9}"))
        #expect(MessageName("caf\u{E9}") != MessageName("cafe\u{301}"))
        var table: [MessageName: String] = [:]
        table[MessageName("caf\u{E9}")] = "composed"
        table[MessageName("cafe\u{301}")] = "decomposed"
        #expect(table.count == 2)
        #expect(table[MessageName("caf\u{E9}")] == "composed")
        #expect(table[MessageName("cafe\u{301}")] == "decomposed")
    }

    @Test("names of every length from 0 to 40 bytes differing in one byte are different names")
    func lengths() {
        for length in 0...40 {
            let name = String(repeating: "a", count: length)
            #expect(MessageName(name) == MessageName(String(decoding: Array(name.utf8), as: UTF8.self)))
            #expect(MessageName(name) != MessageName(name + "a"))
            for position in 0..<length {
                var bytes = Array(repeating: UInt8(ascii: "a"), count: length)
                bytes[position] = UInt8(ascii: "b")
                #expect(MessageName(name) != MessageName(String(decoding: bytes, as: UTF8.self)))
            }
        }
    }

    @Test("the bus matches exact names by bytes, as it matches wildcards")
    func busUsesBytes() {
        let bus = EventBus()
        let recorder = Trace()
        let owner = WatchOwner()
        bus.watch("caf\u{E9}:saved", owner: owner) { _, _ in recorder.record("exact composed") }
        bus.watch("caf\u{E9}:*", owner: owner) { _, _ in recorder.record("wildcard composed") }
        bus.trigger("cafe\u{301}:saved")
        #expect(recorder.all.isEmpty)
        bus.trigger("caf\u{E9}:saved")
        #expect(recorder.all == ["exact composed", "wildcard composed"])
    }

    @Test("unwatch(owner:message:) compares the pattern by bytes")
    func unwatchUsesBytes() {
        let bus = EventBus()
        let recorder = Trace()
        let owner = WatchOwner()
        bus.watch("caf\u{E9}", owner: owner) { _, _ in recorder.record("composed") }
        bus.watch("cafe\u{301}", owner: owner) { _, _ in recorder.record("decomposed") }
        bus.unwatch(owner: owner, message: "cafe\u{301}")
        bus.trigger("caf\u{E9}")
        bus.trigger("cafe\u{301}")
        #expect(recorder.all == ["composed"])
        #expect(bus.watchCount(owner: owner) == 1)
    }
}

@Suite("EventBus removal at scale")
struct EventBusRemovalScaleTests {
    @Test("unwatching an owner with thousands of watches of one name leaves the others intact")
    func bulkRemovalOfOneName() {
        let bus = EventBus()
        let leaving = WatchOwner()
        let staying = WatchOwner()
        let counter = AtomicCounter()
        for index in 0..<4_000 {
            bus.watch("tick", owner: index.isMultiple(of: 2) ? leaving : staying) { _, _ in counter.increment() }
        }
        bus.unwatch(owner: leaving)
        bus.trigger("tick")
        #expect(counter.count == 2_000)
        #expect(bus.watchCount == 2_000)
    }

    @Test("canonically equal names with different bytes keep separate watch lists through removal")
    func byteDistinctNamesOnRemoval() {
        let bus = EventBus()
        let recorder = Trace()
        let first = WatchOwner()
        let second = WatchOwner()
        bus.watch("caf\u{E9}", owner: first) { _, _ in recorder.record("composed, first") }
        bus.watch("cafe\u{301}", owner: first) { _, _ in recorder.record("decomposed, first") }
        bus.watch("caf\u{E9}", owner: second) { _, _ in recorder.record("composed, second") }
        bus.watch("cafe\u{301}", owner: second) { _, _ in recorder.record("decomposed, second") }
        bus.unwatch(owner: first)
        bus.trigger("caf\u{E9}")
        bus.trigger("cafe\u{301}")
        #expect(recorder.all == ["composed, second", "decomposed, second"])
    }
}
