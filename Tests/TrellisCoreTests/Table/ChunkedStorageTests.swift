import Testing
@testable import TrellisCore

@Suite("ChunkedStorage")
struct ChunkedStorageTests {
    @Test("random inserts, removals and writes give the same list as an array")
    func matchesArray() {
        var generator = SeededGenerator(seed: 42)
        var reference = Array(0..<5_000)
        var storage = ChunkedStorage(reference)
        for step in 0..<20_000 {
            switch Int.random(in: 0..<10, using: &generator) {
            case 0..<5:
                let index = Int.random(in: 0...reference.count, using: &generator)
                reference.insert(-step, at: index)
                storage.insert(-step, at: index)
            case 5..<9 where !reference.isEmpty:
                let index = Int.random(in: 0..<reference.count, using: &generator)
                #expect(storage.remove(at: index) == reference.remove(at: index))
            default:
                guard !reference.isEmpty else { continue }
                let index = Int.random(in: 0..<reference.count, using: &generator)
                reference[index] = step
                storage[index] = step
            }
        }
        #expect(storage.count == reference.count)
        #expect(Array(storage) == reference)
        #expect((0..<reference.count).allSatisfy { storage[$0] == reference[$0] })
        #expect(storage.firstIndex { $0 == reference[reference.count / 2] } == reference.firstIndex(of: reference[reference.count / 2]))
    }

    @Test("the positions matching a test, in a range or among candidates, are an array's")
    func matchingIndices() {
        var generator = SeededGenerator(seed: 7)
        var reference = Array(0..<9_000)
        var storage = ChunkedStorage(reference)
        // Uneven chunks: inserts split some, removals shrink others.
        for step in 0..<3_000 {
            let index = Int.random(in: 0..<reference.count, using: &generator)
            if step % 3 == 0 {
                reference.remove(at: index)
                storage.remove(at: index)
            } else {
                reference.insert(step, at: index)
                storage.insert(step, at: index)
            }
        }
        let isOdd: (Int) -> Bool = { $0 % 2 == 1 }
        #expect(storage.indices(among: 0..<storage.count, where: isOdd) == reference.indices.filter { isOdd(reference[$0]) })
        for _ in 0..<50 {
            let start = Int.random(in: 0...reference.count, using: &generator)
            let range = start..<Int.random(in: start...reference.count, using: &generator)
            let inRange = storage.indices(among: range, where: isOdd)
            #expect((inRange ?? Array(range)) == range.filter { isOdd(reference[$0]) }, "\(range)")
            let candidates = range.filter { _ in Bool.random(using: &generator) }
            let among = storage.indices(among: candidates, where: isOdd)
            #expect((among ?? candidates) == candidates.filter { isOdd(reference[$0]) })
        }
    }

    @Test("when every candidate matches, the answer is nil: no list is made")
    func everyCandidateMatches() {
        let storage = ChunkedStorage(Array(0..<5_000))
        #expect(storage.indices(among: 0..<5_000, where: { $0 >= 0 }) == nil)
        #expect(storage.indices(among: [3, 4_000], where: { $0 >= 0 }) == nil)
        #expect(storage.indices(among: 0..<5_000, where: { $0 != 4_999 }) == Array(0..<4_999))
        #expect(storage.indices(among: 0..<5_000, where: { $0 != 0 }) == Array(1..<5_000))
        #expect(storage.indices(among: [Int](), where: { _ in false }) == nil)
    }

    @Test("an emptied storage accepts inserts again")
    func emptyAgain() {
        var storage = ChunkedStorage([1, 2])
        storage.remove(at: 0)
        storage.remove(at: 0)
        #expect(storage.isEmpty)
        storage.insert(3, at: 0)
        storage.append(4)
        #expect(Array(storage) == [3, 4])
    }
}

/// A deterministic random number generator (SplitMix64) for reproducible tests.
struct SeededGenerator: RandomNumberGenerator {
    private var state: UInt64

    init(seed: UInt64) { state = seed }

    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}
