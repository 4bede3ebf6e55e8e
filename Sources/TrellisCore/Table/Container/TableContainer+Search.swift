/// Search as you type: at once (``searchText``), or with the matching off the main actor
/// (``search(_:)``), which is what a window uses so that typing never waits for a million rows.
extension TableContainer {
    /// The search text; setting it filters the rows and announces one change spanning the
    /// rows between the unchanged beginning and the unchanged end of the model. A search
    /// still running from ``search(_:)`` will not apply.
    public var searchText: String {
        get { searcher.text }
        set {
            _ = searcher.request()
            let previous = searcher.setText(newValue)
            guard searcher.query != previous else { return }
            let old = layout
            layout = makeLayout(narrowing: searcher.query.narrows(previous) ? old : nil)
            emit(FlatLayout.difference(from: old, to: layout))
        }
    }

    /// Filters the rows by `text` as setting ``searchText`` does, without holding the main
    /// actor for longer than a slice of work: the folded texts are compared on another
    /// thread, over a copy; the result is applied, as one change, only if `text` is still
    /// the latest search and the rows did not change meanwhile (then the comparison runs
    /// again). Returns once `text` is applied, or at once when a later search replaces it.
    ///
    /// On the first search the folded texts are made on the main actor (a row's text comes
    /// from the cell provider), ``searchIndexSlice`` rows at a time with a millisecond between,
    /// in which the window handles input and paints.
    ///
    /// ```swift
    /// Task { await catalog.search("фэнтези") }   // the window's search field does this
    /// ```
    public func search(_ text: String) async {
        let request = searcher.request()
        while searcher.latestRequest == request {
            let query = SearchQuery(text)
            guard query != searcher.query, !query.isEmpty else {
                // Nothing to compare: the same terms, or none (every row shows).
                return applySearch(text, matches: nil)
            }
            guard await prepareIndexInSlices(for: request), let index = searcher.index else { return }
            let version = searcher.rowsVersion
            let candidates = query.narrows(searcher.query) ? layout.sections.map(\.visibleRows) : nil
            let matches = await Task.detached(priority: .userInitiated) {
                await TableSearcher.matchingRows(in: index, query: query, among: candidates)
            }.value
            if searcher.latestRequest == request && searcher.rowsVersion == version {
                return applySearch(text, matches: matches)
            }
        }
    }

    /// Rows folded per slice on the first ``search(_:)`` (about 10 ms of work in the
    /// release build, for rows of a short description).
    public static var searchIndexSlice: Int { 20_000 }

    /// Shows the rows of `matches` (by section; nil: every row) for the search `text`.
    private func applySearch(_ text: String, matches: [[Int]]?) {
        let previous = searcher.setText(text)
        guard searcher.query != previous else { return }
        let old = layout
        guard let matches else {
            layout = makeLayout(narrowing: nil)
            return emit(FlatLayout.difference(from: old, to: layout))
        }
        layout = FlatLayout(sections: old.sections.indices.map { section in
            var shown = old.sections[section]
            shown.visibleRows = matches[section]
            return shown
        })
        emit(FlatLayout.difference(from: old, to: layout))
    }

    /// Folds every row's text, a slice at a time, unless that was done: false when a later
    /// search took over meanwhile. Starts again when the rows change between two slices.
    private func prepareIndexInSlices(for request: Int) async -> Bool {
        while searcher.index == nil {
            let version = searcher.rowsVersion
            let rowCounts = (0..<source.numberOfSections).map { source.numberOfRows(inSection: $0) }
            var folded: [ChunkedStorage<String>] = []
            var sinceYield = 0
            for section in rowCounts.indices {
                var keys = ChunkedStorage<String>()
                for row in 0..<rowCounts[section] {
                    keys.append(TableSearcher.fold(searchText(at: TableIndexPath(section: section, row: row))))
                    sinceYield += 1
                    guard sinceYield == Self.searchIndexSlice else { continue }
                    sinceYield = 0
                    // A pause, not `Task.yield()`: work queued again at once keeps the main
                    // loop busy at default priority, and GTK paints at a lower one.
                    try? await Task.sleep(for: .milliseconds(1))
                    guard searcher.latestRequest == request else { return false }
                    guard searcher.rowsVersion == version else { break }
                }
                guard searcher.rowsVersion == version else { break }
                folded.append(keys)
            }
            if searcher.rowsVersion == version && searcher.index == nil { searcher.install(folded) }
        }
        return searcher.latestRequest == request
    }
}
