import Foundation

/// Search as you type over a table (a table controller in the seeds' sense:
/// `JLTableSearcher`).
///
/// Matching is Unicode-aware, case- and diacritic-insensitive, and `ё` matches `е`: see
/// ``fold(_:)``. Each item's text is folded once, when the first search starts, and kept
/// in step with the source's changes afterwards, so a keystroke costs one pass of substring
/// tests over the folded texts — or only over the rows still shown, when the user typed on.
/// That pass can run off the main actor (``TableContainer/search(_:)``): the folded texts
/// are a value, and a search applies only if the table did not change while it ran.
///
/// Set the text through the container, which filters and announces the rows that changed:
///
/// ```swift
/// container.searchText = "фэнтези"     // shows "Фэнтези", "ФЭНТЕЗИ", "Боевое фэнтези"…
/// container.searcher.isFiltering       // true
/// TableSearcher.fold("Ёж")             // "еж"
/// ```
@MainActor
public final class TableSearcher {
    /// The search text as typed.
    public private(set) var text = ""
    private(set) var query = SearchQuery("")
    /// The folded text of every row, by section; built when the first search starts.
    private(set) var index: [ChunkedStorage<String>]?
    /// Counts the changes of the rows: a search that ran off the main actor applies only
    /// when this did not move meanwhile.
    private(set) var rowsVersion = 0
    /// Counts the searches asked for: a search applies only while it is the latest.
    private(set) var latestRequest = 0

    init() {}

    /// Whether the search text has any term, so rows are being filtered.
    public var isFiltering: Bool { !query.isEmpty }

    /// `text` folded the way search compares it: case and diacritics removed, `ё` → `е`.
    public static func fold(_ text: String) -> String {
        SearchQuery.fold(text)
    }

    /// Whether `text` matches the search `query` under the folding rules (every
    /// whitespace-separated term of the query occurs in the text).
    public static func matches(_ text: String, query: String) -> Bool {
        SearchQuery(query).matches(fold(text))
    }

    // MARK: - Filtering (driven by the container)

    /// Sets the text; returns the previous query.
    func setText(_ newText: String) -> SearchQuery {
        let previous = query
        text = newText
        query = SearchQuery(newText)
        return previous
    }

    /// Starts a search: every earlier one still running will not apply. Returns its number.
    func request() -> Int {
        latestRequest += 1
        return latestRequest
    }

    /// Folds the text of every row (from `key`) unless that was done already.
    func prepareIndex(rowCounts: [Int], key: (TableIndexPath) -> String) {
        guard index == nil else { return }
        index = rowCounts.indices.map { Self.foldedKeys(section: $0, rowCount: rowCounts[$0], key: key) }
    }

    /// Takes an index folded elsewhere (in slices, ``TableContainer/search(_:)``), made
    /// from the rows as they are now.
    func install(_ folded: [ChunkedStorage<String>]) {
        index = folded
    }

    /// The rows of `section` matching the query, among `candidates` when given (ascending
    /// rows known to contain every match, e.g. the rows shown for a broader query).
    /// The index must be prepared.
    func matchingRows(inSection section: Int, among candidates: [Int]?) -> [Int] {
        guard let keys = index?[section] else { return candidates ?? [] }
        return Self.matchingRows(of: keys, query: query, among: candidates)
    }

    /// The rows whose folded text in `keys` matches `query`, among `candidates` when given.
    /// Pure: runs on any thread.
    nonisolated static func matchingRows(of keys: ChunkedStorage<String>, query: SearchQuery, among candidates: [Int]?) -> [Int] {
        if let candidates { return keys.indices(among: candidates, where: query.matches) }
        return keys.indices(where: query.matches)
    }

    /// ``matchingRows(of:query:among:)`` for every section of `index`, a long section split
    /// into parts compared at the same time on the machine's cores.
    nonisolated static func matchingRows(in index: [ChunkedStorage<String>], query: SearchQuery,
                                         among candidates: [[Int]?]?) async -> [[Int]] {
        var matches: [[Int]] = []
        for section in index.indices {
            let keys = index[section], among = candidates?[section]
            let parts = splitting(among?.count ?? keys.count)
            guard parts.count > 1 else {
                matches.append(matchingRows(of: keys, query: query, among: among))
                continue
            }
            let found = await withTaskGroup(of: (Int, [Int]).self) { group in
                for (part, range) in parts.enumerated() {
                    group.addTask {
                        guard let among else { return (part, keys.indices(in: range, where: query.matches)) }
                        return (part, keys.indices(among: Array(among[range]), where: query.matches))
                    }
                }
                var found = [[Int]](repeating: [], count: parts.count)
                for await (part, rows) in group { found[part] = rows }
                return found
            }
            matches.append(Array(found.joined()))
        }
        return matches
    }

    /// `0..<count` in as many parts as there are cores, each at least ``minimumPart`` long.
    nonisolated private static func splitting(_ count: Int) -> [Range<Int>] {
        let parts = max(1, min(ProcessInfo.processInfo.activeProcessorCount, count / minimumPart))
        let size = (count + parts - 1) / max(parts, 1)
        return stride(from: 0, to: count, by: max(size, 1)).map { $0..<min($0 + size, count) }
    }

    /// Rows compared per part at least: below, one thread does it sooner than two start.
    nonisolated static var minimumPart: Int { 50_000 }

    /// Whether the row at `path` matches the query (every row does before the index exists).
    func matches(_ path: TableIndexPath) -> Bool {
        guard let index else { return true }
        return query.matches(index[path.section][path.row])
    }

    static func foldedKeys(
        section: Int,
        rowCount: Int,
        key: (TableIndexPath) -> String
    ) -> ChunkedStorage<String> {
        var keys = ChunkedStorage<String>()
        for row in 0..<rowCount { keys.append(fold(key(TableIndexPath(section: section, row: row)))) }
        return keys
    }

    // MARK: - Keeping the index in step with the source

    func rowInserted(at path: TableIndexPath, key: (TableIndexPath) -> String) {
        rowsVersion += 1
        guard index != nil else { return }
        index?[path.section].insert(Self.fold(key(path)), at: path.row)
    }

    func rowDeleted(at path: TableIndexPath) {
        rowsVersion += 1
        index?[path.section].remove(at: path.row)
    }

    func rowMoved(from: TableIndexPath, to: TableIndexPath) {
        rowsVersion += 1
        guard let folded = index?[from.section].remove(at: from.row) else { return }
        index?[to.section].insert(folded, at: to.row)
    }

    func rowUpdated(at path: TableIndexPath, key: (TableIndexPath) -> String) {
        rowsVersion += 1
        guard index != nil else { return }
        index?[path.section][path.row] = Self.fold(key(path))
    }

    func sectionInserted(at section: Int, rowCount: Int, key: (TableIndexPath) -> String) {
        rowsVersion += 1
        guard index != nil else { return }
        index?.insert(Self.foldedKeys(section: section, rowCount: rowCount, key: key), at: section)
    }

    func sectionDeleted(at section: Int) {
        rowsVersion += 1
        index?.remove(at: section)
    }

    /// Forgets every folded text (the source reloaded); they are folded again when needed.
    func resetIndex() {
        rowsVersion += 1
        index = nil
    }
}
