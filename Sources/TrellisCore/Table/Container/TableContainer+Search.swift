/// Search as you type: ``searchText`` filters at once; ``search(_:)`` does the same, except
/// that the first search of a table, which folds the text of every row, lets the window draw
/// while it does.
extension TableContainer {
    /// The search text; setting it filters the rows and announces one change spanning the
    /// rows between the unchanged beginning and the unchanged end of the model. A search
    /// still waiting in ``search(_:)`` will not apply.
    ///
    /// The first search folds the text of every row (on the main actor: a row's text comes
    /// from the cell provider); every search compares the folded texts, a long list in parts
    /// on all cores at once.
    public var searchText: String {
        get { searcher.text }
        set {
            _ = searcher.request()
            let previous = searcher.setText(newValue)
            guard searcher.query != previous else { return }
            let old = layout
            let narrowing = searcher.query.narrows(previous)
            layout = makeLayout(narrowing: narrowing ? old : nil, of: narrowing ? previous : nil)
            emit(FlatLayout.difference(from: old, to: layout))
        }
    }

    /// Filters the rows by `text` as setting ``searchText`` does, so that the keystroke's
    /// result is in the frame that shows the keystroke. Only the first search of a table
    /// waits: it folds the rows' texts on the main actor ``searchIndexSlice`` rows at a
    /// time, with a millisecond between in which the window handles input and paints, and
    /// starts again if the rows change meanwhile. A search asked for while it waits replaces
    /// it (the folding goes on for the later one). Returns once `text` is applied, or once a
    /// later search replaced it.
    ///
    /// ```swift
    /// Task { await catalog.search("фэнтези") }   // the window's search field does this
    /// ```
    public func search(_ text: String) async {
        let request = searcher.request()
        if !SearchQuery(text).isEmpty && searcher.index == nil {
            await foldRowsInSlices()
            guard searcher.latestRequest == request else { return }
        }
        searchText = text
    }

    /// Rows folded per slice on the first ``search(_:)`` (a few milliseconds of work in the
    /// release build, for rows of a short description).
    public static var searchIndexSlice: Int { 50_000 }

    /// Folds every row's text, a slice at a time, unless that was done; one folding serves
    /// every search that waits for it.
    private func foldRowsInSlices() async {
        if let folding = searcher.folding { return await folding.value }
        let folding = Task { [weak self] in
            while let self, self.searcher.index == nil {
                // A synchronous search may have folded them meanwhile.
                if let folded = await self.foldedTextsInSlices(), self.searcher.index == nil { self.searcher.install(folded) }
            }
            self?.searcher.folding = nil
        }
        searcher.folding = folding
        await folding.value
    }

    /// The folded text of every row, made a slice at a time; nil when the rows changed
    /// between two slices (the caller starts again).
    private func foldedTextsInSlices() async -> [ChunkedStorage<String>]? {
        let version = searcher.rowsVersion
        let rowCounts = (0..<source.numberOfSections).map { source.numberOfRows(inSection: $0) }
        var folded: [ChunkedStorage<String>] = []
        var sliceLeft = Self.searchIndexSlice
        for section in rowCounts.indices {
            var keys = ChunkedStorage<String>()
            var row = 0
            while row < rowCounts[section] {
                let end = min(rowCounts[section], row + sliceLeft)
                keys.append(contentsOf: foldedTexts(inSection: section, rows: row..<end))
                sliceLeft -= end - row
                row = end
                guard sliceLeft == 0 else { continue }
                sliceLeft = Self.searchIndexSlice
                // A pause, not `Task.yield()`: work queued again at once keeps the main
                // loop busy at default priority, and GTK paints at a lower one.
                try? await Task.sleep(for: .milliseconds(1))
                guard searcher.rowsVersion == version else { return nil }
            }
            folded.append(keys)
        }
        return folded
    }
}
