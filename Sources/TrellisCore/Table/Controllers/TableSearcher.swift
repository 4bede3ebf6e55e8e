import Foundation

/// Search as you type over a table (a table controller in the seeds' sense:
/// `JLTableSearcher`).
///
/// Matching is Unicode-aware, case- and diacritic-insensitive, and `ё` matches `е`: see
/// ``fold(_:)``. Each item's text is folded once, when the first search starts, and kept
/// in step with the source's changes afterwards, so a keystroke costs one pass of substring
/// tests over the folded texts — or only over the rows still shown, when the user typed on —
/// split over the machine's cores for a long list.
///
/// Set the text through the container, which filters and announces the rows that changed:
///
/// ```swift
/// container.searchText = "фэнтези"     // shows "Фэнтези", "ФЭНТЕЗИ", "Боевое фэнтези"…
/// assert(container.searcher.isFiltering)
/// assert(TableSearcher.fold("Ёж") == "еж")
/// ```
@MainActor
public final class TableSearcher {
    /// The search text as typed.
    public private(set) var text = ""
    private(set) var query = SearchQuery("")
    /// The folded text of every row, by section; built when the first search starts.
    private(set) var index: [ChunkedStorage<String>]?
    /// Counts the changes of the rows: texts folded in slices are kept only when this did
    /// not move meanwhile.
    private(set) var rowsVersion = 0
    /// Counts the searches asked for: a search applies only while it is the latest.
    private(set) var latestRequest = 0
    /// The first search's folding of every row, in slices, while it runs.
    var folding: Task<Void, Never>?

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

    /// Takes the folded text of every row, by section, made from the rows as they are now.
    func install(_ folded: [ChunkedStorage<String>]) {
        index = folded
    }

    /// The rows of `section` matching the query, among `candidates` when given (ascending
    /// rows known to contain every match, e.g. the rows shown for a broader query); `nil`
    /// when every row matches. With `matched`, the candidates (every row when there are none)
    /// are known to match that query, so only the terms it does not imply are compared. The
    /// index must be prepared.
    func matchingRows(inSection section: Int, among candidates: [Int]?, matching matched: SearchQuery? = nil) -> [Int]? {
        guard let keys = index?[section] else { return candidates }
        let remaining = matched.map { query.terms(beyond: $0) } ?? query
        guard !remaining.isEmpty else { return candidates }
        return Self.matchingRows(of: keys, query: remaining, among: candidates)
    }

    /// The rows whose folded text in `keys` matches `query`, among `candidates` when given,
    /// ascending: `candidates` themselves when they all match, and `nil` when no candidates
    /// were given and every row matches. A long list is compared in parts on all cores.
    nonisolated static func matchingRows(of keys: ChunkedStorage<String>, query: SearchQuery, among candidates: [Int]?) -> [Int]? {
        // Each part's matches; nil when the part's candidates (or rows) all match.
        let parts = inParts(candidates?.count ?? keys.count) { range in
            guard let candidates else { return keys.indices(among: range, where: query.matches) }
            return keys.indices(among: candidates[range], where: query.matches)
        }
        guard parts.contains(where: { $0.result != nil }) else { return candidates }
        var joined: [Int] = []
        joined.reserveCapacity(parts.reduce(0) { $0 + ($1.result?.count ?? $1.range.count) })
        for (range, rows) in parts {
            if let rows {
                joined += rows
            } else if let candidates {
                joined += candidates[range]
            } else {
                joined += range
            }
        }
        return joined
    }

    /// `texts` folded (``fold(_:)``), a long list in parts on all cores. Each part folds into
    /// chunks of the storage's size, which the storage then takes as they are: the folded
    /// texts are written once, not copied into one array and again into chunks.
    nonisolated static func folded(_ texts: [String]) -> ChunkedStorage<String> {
        let size = ChunkedStorage<String>.fillChunkCount
        let parts = inParts(texts.count) { range in
            stride(from: range.lowerBound, to: range.upperBound, by: size).map { start in
                texts[start..<min(start + size, range.upperBound)].map(SearchQuery.fold)
            }
        }
        return ChunkedStorage(chunks: parts.flatMap(\.result))
    }

    /// `work` done over `0..<count` in as many parts as there are cores, each at least
    /// ``minimumPart`` long, at the same time (the caller waits for them); the parts' ranges
    /// and results, in order.
    nonisolated static func inParts<Result: Sendable>(_ count: Int, _ work: @Sendable (Range<Int>) -> Result)
        -> [(range: Range<Int>, result: Result)]
    {
        let parts = max(1, min(cores, count / minimumPart))
        let size = (count + parts - 1) / parts
        let ranges = stride(from: 0, to: count, by: max(size, 1)).map { $0..<min($0 + size, count) }
        guard ranges.count > 1 else { return ranges.map { ($0, work($0)) } }
        let results = LockedState([Result?](repeating: nil, count: ranges.count))
        DispatchQueue.concurrentPerform(iterations: ranges.count) { index in
            let result = work(ranges[index])
            results.withLock { $0[index] = result }
        }
        // Every part was done: concurrentPerform returns once each iteration has.
        return results.withLock { results in zip(ranges, results).map { ($0, $1!) } }
    }

    /// Rows compared per part at least: below, one thread does it sooner than two start.
    nonisolated static var minimumPart: Int { 50_000 }

    /// The cores this process may use, read once (each read asks the kernel).
    nonisolated private static let cores = ProcessInfo.processInfo.activeProcessorCount

    /// Whether the row at `path` matches the query (every row does before the index exists).
    func matches(_ path: TableIndexPath) -> Bool {
        guard let index else { return true }
        return query.matches(index[path.section][path.row])
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

    func sectionInserted(at section: Int, folded: () -> ChunkedStorage<String>) {
        rowsVersion += 1
        guard index != nil else { return }
        index?.insert(folded(), at: section)
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
