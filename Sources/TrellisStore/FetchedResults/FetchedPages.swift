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

    init(state: SnapshotState, pageSize: Int) {
        self.state = state
        self.pageSize = max(1, pageSize)
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
            rows = try state.rows(offset: page * pageSize, limit: pageSize)
            cache[page] = rows
            recentPages.append(page)
            if recentPages.count > Self.maximumPages { cache.removeValue(forKey: recentPages.removeFirst()) }
        }
        let index = offset - page * pageSize
        guard rows.indices.contains(index) else {
            throw StoreError.sqlite(SQLiteFailure(
                path: state.snapshot.path, operation: "read \(state.fetch.entity.name) row \(offset)", code: 1,
                message: "the snapshot has \(page * pageSize + rows.count) rows, fewer than counted"))
        }
        return rows[index]
    }
}
