/// The rows of one fetched results state, read from its snapshot a page at a time and
/// kept in a small least-recently-used cache, so that showing any part of a million rows
/// reads only the pages shown.
@MainActor
final class FetchedPages {
    let state: SnapshotState
    private let pageSize: Int
    private var cache: [Int: [ObjectRow]] = [:]
    private var recentPages: [Int] = []

    /// Pages kept in memory.
    static let maximumPages = 64
    /// Pages read in one query when reading on from the page before.
    static let readAheadPages = 4

    /// Whether no index leads with the first sort key: then every query sorts all rows,
    /// and the first page is read with the pages after it.
    private let isOrderUnindexed: Bool

    init(state: SnapshotState, pageSize: Int) {
        self.state = state
        self.pageSize = max(1, pageSize)
        let first = state.fetch.order.first?.name
        isOrderUnindexed = first != EntityDescription.idKey
            && !state.fetch.entity.indexes.contains { $0.keys.first == first }
    }

    /// How many rows are in memory.
    var loadedRowCount: Int { cache.values.reduce(0) { $0 + $1.count } }

    /// The row at global position `offset` (in `0..<state.count`).
    func row(at offset: Int) throws -> ObjectRow {
        let page = offset / pageSize
        let rows: [ObjectRow]
        if let cached = cache[page] {
            rows = cached
            if recentPages.last != page {
                recentPages.removeAll { $0 == page }
                recentPages.append(page)
            }
        } else {
            // Reading on from the page before (scrolling down, or GTK making the rows below
            // the first screen) reads several pages in one query, and so does the first page
            // of an order no index serves (a column sorted by a click): such a query sorts all
            // rows, whatever its LIMIT.
            let readsOn = page > 0 ? cache[page - 1] != nil : isOrderUnindexed
            let count = readsOn ? Self.readAheadPages : 1
            let read = try state.rows(offset: page * pageSize, limit: pageSize * count)
            rows = Array(read.prefix(pageSize))
            for index in 0..<count where index == 0 || read.count > index * pageSize {
                let start = index * pageSize
                remember(index == 0 ? rows : Array(read[start..<min(start + pageSize, read.count)]), as: page + index)
            }
        }
        let index = offset - page * pageSize
        guard rows.indices.contains(index) else {
            throw StoreError.sqlite(SQLiteFailure(
                path: state.snapshot.path, operation: "read \(state.fetch.entity.name) row \(offset)", code: 1,
                message: "the snapshot has \(page * pageSize + rows.count) rows, fewer than counted"))
        }
        return rows[index]
    }

    /// Caches `rows` as page `page`, forgetting the least recently used page beyond
    /// ``maximumPages``.
    private func remember(_ rows: [ObjectRow], as page: Int) {
        if cache.updateValue(rows, forKey: page) == nil { recentPages.append(page) }
        while recentPages.count > Self.maximumPages { cache.removeValue(forKey: recentPages.removeFirst()) }
    }
}
