/// Search as you type over a table (a table controller in the seeds' sense:
/// `JLTableSearcher`).
///
/// Matching is Unicode-aware, case- and diacritic-insensitive, and `ё` matches `е`: see
/// ``fold(_:)``. Each item's text is folded once, when the first search starts, and kept
/// in step with the source's changes afterwards, so a keystroke costs one pass of substring
/// tests over the folded texts — or only over the rows still shown, when the user typed on.
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
    private var index: [ChunkedStorage<String>]?

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

    /// Folds the text of every row (from `key`) unless that was done already.
    func prepareIndex(rowCounts: [Int], key: (TableIndexPath) -> String) {
        guard index == nil else { return }
        index = rowCounts.indices.map { Self.foldedKeys(section: $0, rowCount: rowCounts[$0], key: key) }
    }

    /// The rows of `section` matching the query, among `candidates` when given (ascending
    /// rows known to contain every match, e.g. the rows shown for a broader query).
    /// The index must be prepared.
    func matchingRows(inSection section: Int, among candidates: [Int]?) -> [Int] {
        guard let keys = index?[section] else { return candidates ?? [] }
        if let candidates {
            return candidates.filter { query.matches(keys[$0]) }
        }
        var rows: [Int] = []
        for (row, folded) in keys.enumerated() where query.matches(folded) {
            rows.append(row)
        }
        return rows
    }

    /// Whether the row at `path` matches the query (every row does before the index exists).
    func matches(_ path: TableIndexPath) -> Bool {
        guard let index else { return true }
        return query.matches(index[path.section][path.row])
    }

    private static func foldedKeys(
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
        guard index != nil else { return }
        index?[path.section].insert(Self.fold(key(path)), at: path.row)
    }

    func rowDeleted(at path: TableIndexPath) {
        index?[path.section].remove(at: path.row)
    }

    func rowMoved(from: TableIndexPath, to: TableIndexPath) {
        guard let folded = index?[from.section].remove(at: from.row) else { return }
        index?[to.section].insert(folded, at: to.row)
    }

    func rowUpdated(at path: TableIndexPath, key: (TableIndexPath) -> String) {
        guard index != nil else { return }
        index?[path.section][path.row] = Self.fold(key(path))
    }

    func sectionInserted(at section: Int, rowCount: Int, key: (TableIndexPath) -> String) {
        guard index != nil else { return }
        index?.insert(Self.foldedKeys(section: section, rowCount: rowCount, key: key), at: section)
    }

    func sectionDeleted(at section: Int) {
        index?.remove(at: section)
    }

    /// Forgets every folded text (the source reloaded); they are folded again when needed.
    func resetIndex() {
        index = nil
    }
}
