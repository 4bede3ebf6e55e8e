/// Sorting an ``ArraySource`` by a column, in memory.
extension ArraySource: SortableTableSource {
    /// Orders the rows of each section by the values of `key` (read as
    /// ``KeyValueCellProvider`` reads them), keeping the order of ties: a stable sort.
    /// Identities stay with their elements; announces `.reload`. Later ``insert(_:)`` calls
    /// place elements in this order.
    ///
    /// ```swift
    /// let people = ArraySource(persons)
    /// people.sort(by: "lastName", ascending: true)
    /// ```
    public func sort(by key: String, ascending: Bool) {
        reorder(ascending: ascending, by: { elements, ascending in
            Self.sorted(&elements, byKey: key, ascending: ascending)
        }, precedes: { Self.precedes($0, $1, byKey: key) })
    }

    /// Orders the rows by `column`: through its typed values when its rows are this source's
    /// elements (no key-value coding: a million rows sort several times faster), else by its key.
    ///
    /// ```swift
    /// let people = ArraySource(persons)
    /// people.sort(by: TableColumn(key: "age", title: tr("Age"), value: \Person.age), ascending: false)
    /// ```
    public func sort(by column: TableColumn, ascending: Bool) {
        let key = column.key
        let first = sections.first { $0.count > 0 }?.elements[0]
        guard let typed = column.typed, let first, typed.text(first) != nil else { return sort(by: key, ascending: ascending) }
        reorder(ascending: ascending, by: { elements, ascending in
            // The rows are read from their chunks and moved straight into new ones, where the
            // column's row type is known.
            var rows: Any = elements.removeAllChunks()
            if let (chunks, positions) = typed.sorted(&rows, ascending, ChunkedStorage<Element>.fillChunkCount) {
                // The source's own rows, as the column's `Row`s: each is an `Element`.
                return (ChunkedStorage(chunks: chunks as! [[Element]]), positions)
            }
            // Not the column's rows after all (`rows` is untouched): sorted by key.
            elements = ChunkedStorage(chunks: rows as? [[Element]] ?? [])
            return Self.sorted(&elements, byKey: key, ascending: ascending)
        }, precedes: { a, b in typed.precedes(a, b) ?? Self.precedes(a, b, byKey: key) })
    }

    /// `serials` at `positions`, in that order (not generic: compiled for `Int`).
    nonisolated private static func serials(_ serials: [Int], at positions: [Int]) -> [Int] {
        positions.map { serials[$0] }
    }

    /// `storage`'s elements (moved out of it) in the order of their values of `key`, ties kept
    /// in order, with the original position of each.
    private static func sorted(_ storage: inout ChunkedStorage<Element>, byKey key: String,
                               ascending: Bool) -> (elements: ChunkedStorage<Element>, positions: [Int]) {
        var rows = ChunkedRows(storage.removeAllChunks())
        let positions = ColumnValueOrder.stableOrder(of: rows.map { KeyValueCellProvider.value(of: $0, forKey: key) },
                                                     ascending: ascending)
        return (ChunkedStorage(chunks: rows.removeAll(inOrderOf: positions, inChunksOf: ChunkedStorage<Element>.fillChunkCount)), positions)
    }

    /// Whether `a`'s value of `key` sorts before `b`'s.
    private static func precedes(_ a: Element, _ b: Element, byKey key: String) -> Bool {
        ColumnValueOrder.areInIncreasingOrder(KeyValueCellProvider.value(of: a, forKey: key), KeyValueCellProvider.value(of: b, forKey: key))
    }

    /// Reorders each section's rows by `sort` (given the elements to move out, it answers them
    /// in order, and where each was), remembers `precedes` (the ascending order) for later
    /// inserts, and announces `.reload`.
    private func reorder(ascending: Bool, by sort: (inout ChunkedStorage<Element>, Bool) -> (elements: ChunkedStorage<Element>, positions: [Int]),
                         precedes: @escaping (Element, Element) -> Bool) {
        // The source lets go of its sections first, so that the sort holds the only reference
        // to their rows and moves them rather than copying them.
        var unsorted = sections
        sections = []
        for index in unsorted.indices {
            // Each value is read once.
            var elements = unsorted[index].removeAllElements()
            let sorted = sort(&elements, ascending)
            sections.append(Section(key: unsorted[index].key, elements: sorted.elements,
                                    serials: ChunkedStorage(Self.serials(unsorted[index].serials.array, at: sorted.positions))))
        }
        areInIncreasingOrder = ascending ? precedes : { precedes($1, $0) }
        changes.announce(.reload)
    }
}
