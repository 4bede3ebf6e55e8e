import TrellisCore

/// Sorting fetched results by a column: in SQL, on the store.
extension FetchedSource: SortableTableSource {
    /// Makes `key` the first sort key of the request (the keys sorted by before follow it
    /// and order its ties, as a stable sort would) and fetches again: the store sorts with
    /// `ORDER BY`, and only the first page is read until more rows are shown. Announces
    /// `.reload`. A sectioned source stays grouped by its section key first.
    ///
    /// ```swift
    /// let people = try FetchedSource(request: FetchRequest(entityName: "Person"), context: context)
    /// try people.sort(by: "age", ascending: false)
    /// ```
    /// - Throws: ``ContextError`` when the entity has no attribute `key`, ``StoreError``.
    public func sort(by key: String, ascending: Bool) throws {
        var request = results.request
        request.sortKeys = [SortKey(key, ascending: ascending)] + request.sortKeys.filter { $0.key != key }
        try results.setRequest(request)
    }
}
