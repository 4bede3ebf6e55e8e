/// A list stored as chunks of at most ``maxChunkCount`` elements, with the running totals of
/// the chunk sizes.
///
/// An array of a million rows moves every later element on an insertion (≈0.2 ms at that
/// size); here an insertion or removal moves at most one chunk's elements and updates the
/// running totals of the chunks after it, and indexing is a binary search over the chunks:
/// O(log(n / chunk)). Iteration walks the chunks in order.
struct ChunkedStorage<Element>: Sequence {
    /// A chunk that grows past this splits in two.
    static var maxChunkCount: Int { 2048 }
    /// The size of the chunks a storage is made of from whole arrays: half the maximum, so that
    /// inserts have room before a chunk splits.
    static var fillChunkCount: Int { maxChunkCount / 2 }

    /// The elements in order, in arrays of at most ``maxChunkCount``, none empty.
    private(set) var chunks: [[Element]] = []
    /// `ends[c]` is the number of elements in chunks `0...c`.
    private var ends: [Int] = []

    init() {}

    /// A storage of `elements`, in chunks of half the maximum size, each copied in bulk.
    init(_ elements: [Element]) {
        let size = Self.fillChunkCount
        chunks = stride(from: 0, to: elements.count, by: size).map { start in
            Array(elements[start..<Swift.min(start + size, elements.count)])
        }
        var total = 0
        ends = chunks.map { chunk in
            total += chunk.count
            return total
        }
    }

    /// A storage of these chunks, as they are (each at most ``maxChunkCount`` long).
    init(chunks: [[Element]]) {
        self.chunks = chunks.filter { !$0.isEmpty }
        var total = 0
        ends = self.chunks.map { chunk in
            total += chunk.count
            return total
        }
    }

    var count: Int { ends.last ?? 0 }

    /// The chunks, leaving the storage empty: with no other copy of the storage, the caller
    /// then holds the only reference to its elements and may move them.
    mutating func removeAllChunks() -> [[Element]] {
        ends = []
        defer { chunks = [] }
        return chunks
    }

    /// The elements as one array, copied a chunk at a time.
    var array: [Element] {
        var elements: [Element] = []
        elements.reserveCapacity(count)
        for chunk in chunks { elements += chunk }
        return elements
    }

    var isEmpty: Bool { chunks.isEmpty }

    subscript(index: Int) -> Element {
        get {
            let (chunk, offset) = locate(index)
            return chunks[chunk][offset]
        }
        set {
            let (chunk, offset) = locate(index)
            chunks[chunk][offset] = newValue
        }
    }

    /// Inserts `element` at `index`, which is in `0...count`.
    mutating func insert(_ element: Element, at index: Int) {
        guard !chunks.isEmpty else {
            chunks = [[element]]
            ends = [1]
            return
        }
        let (chunk, offset) = index == count ? (chunks.count - 1, chunks[chunks.count - 1].count) : locate(index)
        chunks[chunk].insert(element, at: offset)
        for c in chunk..<ends.count { ends[c] += 1 }
        if chunks[chunk].count > Self.maxChunkCount { split(chunk) }
    }

    mutating func append(_ element: Element) {
        insert(element, at: count)
    }

    /// Appends `elements` in new chunks of half the maximum size, as ``init(_:)`` makes them.
    mutating func append(contentsOf elements: [Element]) {
        append(contentsOf: ChunkedStorage(elements))
    }

    /// Appends the chunks of `other`, as they are.
    mutating func append(contentsOf other: ChunkedStorage) {
        let total = count
        chunks += other.chunks
        ends += other.ends.map { $0 + total }
    }

    /// Removes and returns the element at `index`, which is in `0..<count`.
    @discardableResult
    mutating func remove(at index: Int) -> Element {
        let (chunk, offset) = locate(index)
        let element = chunks[chunk].remove(at: offset)
        for c in chunk..<ends.count { ends[c] -= 1 }
        if chunks[chunk].isEmpty {
            chunks.remove(at: chunk)
            ends.remove(at: chunk)
        }
        return element
    }

    /// Calls `body` with each element in `range` (within `0..<count`), in order, walking the
    /// chunks rather than looking each position up.
    func forEach(in range: Range<Int>, _ body: (Element) throws -> Void) rethrows {
        guard !range.isEmpty else { return }
        var (chunk, offset) = locate(range.lowerBound)
        var remaining = range.count
        while remaining > 0 {
            let elements = chunks[chunk]
            let end = Swift.min(elements.count, offset + remaining)
            for index in offset..<end { try body(elements[index]) }
            remaining -= end - offset
            chunk += 1
            offset = 0
        }
    }

    /// The position of the first element that satisfies `predicate`, scanning in order.
    func firstIndex(where predicate: (Element) throws -> Bool) rethrows -> Int? {
        var base = 0
        for chunk in chunks {
            if let offset = try chunk.firstIndex(where: predicate) { return base + offset }
            base += chunk.count
        }
        return nil
    }

    /// The positions among `candidates` (ascending, each in `0..<count`; a range such as
    /// `0..<count` is a list too) of the elements that satisfy `predicate`: one walk over the
    /// chunks rather than a search per candidate. `nil` when every candidate does: while they
    /// all do, nothing is copied (a search that hides no row of a million writes no list).
    func indices<Candidates: Collection<Int>>(among candidates: Candidates, where predicate: (Element) throws -> Bool) rethrows -> [Int]? {
        var found: [Int]?
        var next = candidates.startIndex
        var offset = 0
        var start = 0
        for (chunk, end) in ends.enumerated() {
            defer { start = end }
            guard next != candidates.endIndex else { break }
            guard candidates[next] < end else { continue }
            // The chunk holding the next candidates, read in place for all of them: each row
            // taken from it by subscript was a checked, reference-counted copy ("row 1" on a
            // million rows, `trellis-bench table`'s table-search-every-row: 10.5 → 8.0 ms).
            // Safe: only read, at `index - start`, which is in `0..<count` since `start <=
            // index < end`, inside the closure that lends the buffer.
            try chunks[chunk].withUnsafeBufferPointer { elements in
                while next != candidates.endIndex, case let index = candidates[next], index < end {
                    if try predicate(elements[index - start]) {
                        found?.append(index)
                    } else if found == nil {
                        // Room for every candidate at once: grown by doubling, half a million rows
                        // were copied again and again into pages touched afresh (a million rows'
                        // keystroke "row 1", 468,559 rows kept: a median of 26–34 ms, now 23).
                        var list = Array(candidates.prefix(offset))
                        list.reserveCapacity(candidates.count)
                        found = list
                    }
                    offset += 1
                    candidates.formIndex(after: &next)
                }
            }
        }
        return found
    }

    func makeIterator() -> Iterator {
        Iterator(chunks: chunks)
    }

    /// Walks the chunks in order.
    struct Iterator: IteratorProtocol {
        fileprivate let chunks: [[Element]]
        private var chunk = 0
        private var offset = 0

        fileprivate init(chunks: [[Element]]) {
            self.chunks = chunks
        }

        mutating func next() -> Element? {
            while chunk < chunks.count {
                if offset < chunks[chunk].count {
                    defer { offset += 1 }
                    return chunks[chunk][offset]
                }
                chunk += 1
                offset = 0
            }
            return nil
        }
    }

    /// The chunk holding `index` and the offset within it: the first chunk whose running
    /// total exceeds `index`, found by binary search.
    private func locate(_ index: Int) -> (chunk: Int, offset: Int) {
        var low = 0
        var high = ends.count - 1
        while low < high {
            let mid = (low + high) / 2
            if ends[mid] > index { high = mid } else { low = mid + 1 }
        }
        let start = low == 0 ? 0 : ends[low - 1]
        return (low, index - start)
    }

    private mutating func split(_ chunk: Int) {
        let half = chunks[chunk].count / 2
        let tail = Array(chunks[chunk][half...])
        chunks[chunk].removeSubrange(half...)
        chunks.insert(tail, at: chunk + 1)
        ends.insert(ends[chunk], at: chunk + 1)
        ends[chunk] -= tail.count
    }
}

extension ChunkedStorage: Sendable where Element: Sendable {}
