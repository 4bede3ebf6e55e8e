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
        sections = sections.map { section in
            // The elements are copied out of their chunks once, and each value is read once.
            let elements = Array(section.elements)
            let serials = Array(section.serials)
            let values: [JSONValue?] = elements.map { KeyValueCellProvider.value(of: $0, forKey: key) }
            let order = ColumnValueOrder.stableOrder(of: values, ascending: ascending)
            return Section(key: section.key, elements: order.map { elements[$0] }, serials: order.map { serials[$0] })
        }
        let before = { (lhs: JSONValue?, rhs: JSONValue?) -> Bool in
            ascending ? ColumnValueOrder.areInIncreasingOrder(lhs, rhs) : ColumnValueOrder.areInIncreasingOrder(rhs, lhs)
        }
        areInIncreasingOrder = { a, b in
            before(KeyValueCellProvider.value(of: a, forKey: key), KeyValueCellProvider.value(of: b, forKey: key))
        }
        changes.announce(.reload)
    }
}
