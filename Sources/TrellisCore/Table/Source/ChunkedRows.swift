/// Rows in the chunks of a source's storage: what an ``ArraySource``'s sort reads in order and
/// then moves into their new order, without first copying a million rows into one array (each
/// copy retains every row's strings, which costs more than the sort). Not isolated to an actor:
/// Swift would check the actor of an isolated closure at each of a million calls.
@usableFromInline
struct ChunkedRows<Row> {
    @usableFromInline private(set) var chunks: [[Row]]
    /// The number of rows.
    @usableFromInline private(set) var count: Int

    @inlinable
    init(_ chunks: [[Row]]) {
        self.chunks = chunks
        count = chunks.reduce(0) { $0 + $1.count }
    }

    /// `value` of every row, in order.
    @inlinable
    func map<Value>(_ value: (Row) -> Value) -> [Value] {
        var values: [Value] = []
        values.reserveCapacity(count)
        for chunk in chunks {
            // By index, not `for row in chunk`: each row is lent to `value`, not copied (retained).
            for index in chunk.indices { values.append(value(chunk[index])) }
        }
        return values
    }

    /// Empties the rows into new chunks of `size` rows in the order of `positions` (a
    /// permutation of `0..<count`).
    ///
    /// The rows are moved, not copied, when these chunks are their only reference (the
    /// source gives its storage away before sorting): a copy retains each row's strings in the
    /// new order, which the processor's cache does not follow, and that cost more than the
    /// sort itself (``Benchmarks``, `ratio sort-array`). Arrays give elements away without
    /// copying them from their end (`popLast`), and optionals wherever they are (`take`): the
    /// rows go, last first, into slots, and out of them in the new order.
    @inlinable
    mutating func removeAll(inOrderOf positions: [Int], inChunksOf size: Int) -> [[Row]] {
        var slots = [Row?](repeating: nil, count: count)
        var filled = 0
        while var chunk = chunks.popLast() {
            while let row = chunk.popLast() {
                slots[filled] = row
                filled += 1
            }
        }
        // `slots[last - position]` holds the row at `position`; a permutation takes each once.
        let last = count - 1
        count = 0
        var reordered: [[Row]] = []
        reordered.reserveCapacity(positions.count / size + 1)
        var start = 0
        while start < positions.count {
            var chunk: [Row] = []
            chunk.reserveCapacity(Swift.min(size, positions.count - start))
            for position in positions[start..<Swift.min(start + size, positions.count)] {
                if let row = slots[last - position].take() { chunk.append(row) }
            }
            reordered.append(chunk)
            start += size
        }
        return reordered
    }
}
