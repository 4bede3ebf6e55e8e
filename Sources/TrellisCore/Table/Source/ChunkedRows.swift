/// Rows in the chunks of a source's storage, read by their position in the whole: what an
/// ``ArraySource``'s sort reads and gathers, without first copying a million rows into one
/// array (each copy retains every row's strings, which costs more than the sort). Not isolated
/// to an actor: Swift would check the actor of an isolated closure at each of a million calls.
@usableFromInline
struct ChunkedRows<Row> {
    @usableFromInline let chunks: [[Row]]
    /// The chunk holding each position.
    @usableFromInline let chunkOfPosition: [Int32]
    /// The position of each chunk's first row.
    @usableFromInline let starts: [Int]

    @inlinable
    init(_ chunks: [[Row]]) {
        self.chunks = chunks
        var chunkOfPosition: [Int32] = []
        var starts: [Int] = []
        starts.reserveCapacity(chunks.count)
        for (index, chunk) in chunks.enumerated() {
            starts.append(chunkOfPosition.count)
            chunkOfPosition.append(contentsOf: repeatElement(Int32(index), count: chunk.count))
        }
        self.chunkOfPosition = chunkOfPosition
        self.starts = starts
    }

    @inlinable
    var count: Int { chunkOfPosition.count }

    /// `value` of every row, in order.
    @inlinable
    func map<Value>(_ value: (Row) -> Value) -> [Value] {
        var values: [Value] = []
        values.reserveCapacity(count)
        for chunk in chunks {
            for row in chunk { values.append(value(row)) }
        }
        return values
    }

    /// The rows at `positions`, in that order, as new chunks of `size` rows.
    @inlinable
    func gathered(at positions: [Int], inChunksOf size: Int) -> [[Row]] {
        stride(from: 0, to: positions.count, by: size).map { start in
            positions[start..<min(start + size, positions.count)].map { position in
                let chunk = Int(chunkOfPosition[position])
                return chunks[chunk][position - starts[chunk]]
            }
        }
    }
}
