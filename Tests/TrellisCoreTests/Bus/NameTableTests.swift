import Testing
@testable import TrellisCore
import TrellisTesting

@Suite("NameTable, the bus's lookup by message name")
struct NameTableTests {
    @Test("matches a Dictionary over thousands of random inserts, updates and removals")
    func mirrorsDictionary() {
        var generator = SeededGenerator(seed: 0x7E11_15)
        var table = NameTable<Int>()
        var model: [String: Int] = [:]
        // Short names collide in home slots often, which exercises backward-shift deletion.
        let names = (0..<300).map { index in index.isMultiple(of: 5) ? "n\(index)" : "message:\(index):\(String(repeating: "x", count: index % 23))" }
        for step in 0..<20_000 {
            let name = names[Int.random(in: 0..<names.count, using: &generator)]
            switch Int.random(in: 0..<3, using: &generator) {
            case 0:
                table[name] = step
                model[name] = step
            case 1:
                #expect(table.removeValue(for: name) == model.removeValue(forKey: name))
            default:
                table.modify(name, default: 0) { $0 += 1 }
                model[name, default: 0] += 1
            }
            #expect(table.count == model.count)
        }
        for name in names {
            #expect(table[name] == model[name], "\(name)")
        }
        #expect(table.storedValues.sorted() == model.values.sorted())
        table.removeAll()
        #expect(table.isEmpty)
        #expect(names.allSatisfy { table[$0] == nil })
    }

    @Test("names are compared by UTF-8 bytes: composed and decomposed é are two names")
    func byteSemantics() {
        var table = NameTable<String>()
        table["caf\u{E9}"] = "composed"
        table["cafe\u{301}"] = "decomposed"
        #expect(table.count == 2)
        #expect(table["caf\u{E9}"] == "composed")
        #expect(table["cafe\u{301}"] == "decomposed")
        #expect(NameTable<Int>.sameBytes("caf\u{E9}", "caf\u{E9}"))
        #expect(!NameTable<Int>.sameBytes("caf\u{E9}", "cafe\u{301}"))
    }

    @Test("every length from 0 to 64 bytes hashes and finds its own name only")
    func lengths() {
        var table = NameTable<Int>()
        for length in 0...64 { table[String(repeating: "a", count: length)] = length }
        for length in 0...64 { #expect(table[String(repeating: "a", count: length)] == length) }
        // Same length, one byte different at each position: a different name.
        for length in 1...40 {
            for position in 0..<length {
                var bytes = Array(repeating: UInt8(ascii: "a"), count: length)
                bytes[position] = UInt8(ascii: "b")
                #expect(table[String(decoding: bytes, as: UTF8.self)] == nil)
            }
        }
        // A heap-allocated name finds the slot stored from a literal-sized one.
        let long = String(repeating: "network:activity:", count: 4)
        table[long] = -1
        #expect(table[String(long.utf8.map { Character(Unicode.Scalar($0)) })] == -1)
    }

    @Test("hashes differ between tables (seeded) and spread short names over the low bits that pick slots")
    func seeded() {
        let first = NameTable<Int>.hash(of: "network:on", seed: 1)
        let second = NameTable<Int>.hash(of: "network:on", seed: 2)
        #expect(first != second)
        let hashes = Set((0..<10_000).map { NameTable<Int>.hash(of: "n\($0)", seed: 42) & 0xFFFF })
        // 10,000 names into 65,536 buckets: a uniform hash leaves ~9,260 distinct buckets.
        #expect(hashes.count > 9_000)
    }

    @Test("the bus matches exact names by bytes, as it matches wildcards")
    func busUsesBytes() {
        let bus = EventBus()
        let recorder = Trace()
        let owner = WatchOwner()
        bus.watch("caf\u{E9}:saved", owner: owner) { _ in recorder.record("exact composed") }
        bus.watch("caf\u{E9}:*", owner: owner) { _ in recorder.record("wildcard composed") }
        bus.trigger("cafe\u{301}:saved")
        #expect(recorder.all.isEmpty)
        bus.trigger("caf\u{E9}:saved")
        #expect(recorder.all == ["exact composed", "wildcard composed"])
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
            bus.watch("tick", owner: index.isMultiple(of: 2) ? leaving : staying) { _ in counter.increment() }
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
        bus.watch("caf\u{E9}", owner: first) { _ in recorder.record("composed, first") }
        bus.watch("cafe\u{301}", owner: first) { _ in recorder.record("decomposed, first") }
        bus.watch("caf\u{E9}", owner: second) { _ in recorder.record("composed, second") }
        bus.watch("cafe\u{301}", owner: second) { _ in recorder.record("decomposed, second") }
        bus.unwatch(owner: first)
        bus.trigger("caf\u{E9}")
        bus.trigger("cafe\u{301}")
        #expect(recorder.all == ["composed, second", "decomposed, second"])
    }
}
