/// A table: a source, a cell provider, callbacks, a selection and a searcher composed into
/// the flattened row model a front end shows (the seeds' `JLTableContainer`).
///
/// The flattened model is what a `GListModel` exposes: ``flatCount`` rows, each read on
/// demand with ``flatRow(at:)`` (a section header or an item with its cell), and
/// ``onFlatChanges(_:)`` announcing the smallest `items-changed`-style changes: one row
/// inserted into a million gives one change `(position, 0, 1)`.
///
/// ```swift
/// let genres = ArraySource(lines)
/// let catalog = TableContainer(source: genres,
///                              callbacks: StandardCallbacks(route: { "/catalog/\($0.id)" },
///                                                           navigate: { try? shell.navigate(to: $0) }),
///                              searchable: true)
/// let token = catalog.onFlatChanges { changes in
///     for change in changes { model.itemsChanged(change.position, change.removed, change.added) }
/// }
/// catalog.searchText = "фэнтези"
/// try catalog.activate(flatIndex: 0)     // navigates to /catalog/<id of the first match>
/// ```
///
/// Sections show as header rows (a titled section with at least one shown row starts with
/// its header). Reading a row costs a binary search over the sections; without sections
/// and without a search the flat index is the row itself, with nothing stored per row.
@MainActor
public final class TableContainer {
    /// The data: sections and rows.
    public let source: any TableSource
    /// Makes each row's cell.
    public let cells: any CellProvider
    /// Acts on activations and selection changes.
    public let callbacks: any CallbackHandler
    /// The selection, by item identity.
    public let selection: SelectionController
    /// The columns, with their titles, when the table shows records as columns (the GTK
    /// front end then shows a `GtkColumnView`, headless an aligned table); `nil` for a list.
    /// See ``sort(by:ascending:)``.
    public let columns: [TableColumn]?
    /// The column the rows were last sorted by through ``sort(by:ascending:)``, if any.
    public internal(set) var sortOrder: ColumnSort?
    /// Search as you type; set its text through ``searchText``.
    public let searcher = TableSearcher()
    /// Whether the front end should offer a search field (search toggle, Ctrl+F).
    public let isSearchable: Bool
    /// What the front end shows in place of the rows while the table has none (and no
    /// search hides them), such as "No notes yet"; nil shows an empty list. See
    /// ``placeholder``.
    public var emptyText: String?
    /// Whether activating a row (a click anywhere on it, Enter) toggles its selection instead
    /// of calling the callbacks' `itemActivated`: a checklist's whole row is its checkbox.
    /// ``checklist(_:searchable:onSelectionChange:)`` sets it.
    public var activationToggles = false

    private let searchKey: (@MainActor (TableItem) -> String)?
    var layout: FlatLayout
    private let flatObservers = ObserverList<[FlatChange]>()
    private var sourceObservation: ObservationToken?
    /// While a sort reorders the source: its reload keeps the selection without checking it.
    var isReordering = false
    /// While the first half of a move is delivered: the rows of the second half, already in
    /// `layout`, that the model must not show yet.
    var pendingInsertion: (position: Int, count: Int)?
    /// The changes held back while ``coalescingChanges(_:)`` runs (nil otherwise).
    var collectedChanges: [FlatChange]?
    /// The item whose row front ends are asked to focus (``requestFocus(on:)``).
    public internal(set) var focusRequest: TableItemID?
    let focusObservers = ObserverList<TableItemID>()
    let selectionObservers = ObserverList<SelectionChange>()

    /// A container over `source`.
    /// - Parameters:
    ///   - cells: makes each row's cell; by default the item's description.
    ///   - callbacks: acts on activation and selection changes; by default nothing.
    ///   - selectionMode: `.none`, `.single` or `.multiple`.
    ///   - searchable: whether the front end offers a search field.
    ///   - searchKey: the text searched for an item; by default its cell's columns.
    ///   - columns: the table's columns; by default those a ``KeyValueCellProvider`` made
    ///     with titled columns declares, else none (a list).
    public init(
        source: any TableSource,
        cells: any CellProvider = DescriptionCellProvider(),
        callbacks: any CallbackHandler = StandardCallbacks(),
        selectionMode: SelectionMode = .none,
        searchable: Bool = false,
        searchKey: (@MainActor (TableItem) -> String)? = nil,
        columns: [TableColumn]? = nil
    ) {
        self.source = source
        self.cells = cells
        self.columns = columns ?? (cells as? KeyValueCellProvider)?.columns
        self.callbacks = callbacks
        self.selection = SelectionController(mode: selectionMode)
        self.isSearchable = searchable
        self.searchKey = searchKey
        self.layout = FlatLayout(sections: [])
        layout = makeLayout(narrowing: nil)
        sourceObservation = source.changes.observe { [weak self] change in
            self?.sourceDidChange(change)
        }
    }

    // MARK: - The flattened model

    /// How many rows are shown: header rows and item rows, after search filtering.
    public var flatCount: Int {
        layout.count - (pendingInsertion?.count ?? 0)
    }

    /// The row at `index`, or `nil` when `index` is not in `0..<flatCount`.
    /// O(log sections); the cell is made on each call.
    public func flatRow(at index: Int) -> FlatRow? {
        switch position(at: index) {
        case .header(let section):
            return .header(title: layout.sections[section].title ?? "", section: section)
        case .row(let path):
            return .item(indexPath: path, cell: cell(at: path))
        case nil:
            return nil
        }
    }

    /// The item shown at `index`, or `nil` for a header or an index out of range.
    public func item(atFlatIndex index: Int) -> TableItem? {
        guard case .row(let path) = position(at: index) else { return nil }
        return source.item(at: path)
    }

    /// Where the row at `path` is shown, or `nil` when the search hides it.
    public func flatIndex(of path: TableIndexPath) -> Int? {
        layout.flatIndex(of: path)
    }

    /// Where the item with identity `id` is shown, or `nil` when it is hidden or gone.
    /// Costs the source's ``TableSource/indexPath(of:)`` (a scan for an ``ArraySource``).
    public func flatIndex(of id: TableItemID) -> Int? {
        source.indexPath(of: id).flatMap(layout.flatIndex(of:))
    }

    /// Registers `observer` for the changes of the flattened model, as long as the token lives.
    ///
    /// When the observer runs, ``flatCount`` and ``flatRow(at:)`` already show the model
    /// after the delivered changes, so each change can be emitted in order as
    /// `items-changed`. A call carries either one change or several count-preserving updates
    /// `(position, 1, 1)`; a move arrives as two calls, a removal then an insertion, and
    /// during the first the model shows the row removed and not yet inserted.
    /// Observers must not change the source while they run.
    public func onFlatChanges(_ observer: @escaping @MainActor ([FlatChange]) -> Void) -> ObservationToken {
        flatObservers.observe(observer)
    }

    // MARK: - Internals

    /// The position at a flat index of the model as shown (honouring a pending insertion).
    func position(at index: Int) -> FlatLayout.Position? {
        guard index >= 0, index < flatCount else { return nil }
        guard let pending = pendingInsertion, index >= pending.position else { return layout.position(at: index) }
        return layout.position(at: index + pending.count)
    }

    func cell(at path: TableIndexPath) -> Cell {
        let item = source.item(at: path)
        let isSelected = selection.isSelected(item.id)
        var cell = cells.cell(for: item, context: CellContext(isSelected: isSelected))
        cell.isSelected = isSelected
        return cell
    }

    /// The text searched for the row at `path`.
    func searchText(at path: TableIndexPath) -> String {
        searchText(of: source.item(at: path))
    }

    /// The text searched for `item`: its search key, else what the cell provider says.
    func searchText(of item: TableItem) -> String {
        if let searchKey { return searchKey(item) }
        return cells.searchText(for: item)
    }

    /// The folded search texts of the rows `rows` of `section`: read here (a row's text comes
    /// from the cell provider), folded on all cores.
    func foldedTexts(inSection section: Int, rows: Range<Int>) -> ChunkedStorage<String> {
        // Rows that are strings shown as themselves are folded as they are, without making an
        // item of each and asking the cell provider: half of a million rows' first search.
        if searchKey == nil, (cells as? any StringShowingCellProvider)?.showsStringsAsThemselves == true,
           let strings = (source as? any StringRowsSource)?.strings(inSection: section, rows: rows) {
            return TableSearcher.folded(strings)
        }
        var texts: [String] = []
        texts.reserveCapacity(rows.count)
        source.forEachItem(inSection: section, rows: rows) { texts.append(searchText(of: $0)) }
        return TableSearcher.folded(texts)
    }

    /// The folded search text of every row of `section`, which has `rowCount` rows.
    func foldedTexts(inSection section: Int, rowCount: Int) -> ChunkedStorage<String> {
        foldedTexts(inSection: section, rows: 0..<rowCount)
    }

    /// The layout of the source as it is now, filtered by the current search. With
    /// `narrowing`, the search only narrowed `previousQuery`, which produced that layout, so
    /// only its shown rows are tested, and only for the terms `previousQuery` does not imply.
    func makeLayout(narrowing previous: FlatLayout?, of previousQuery: SearchQuery? = nil) -> FlatLayout {
        let rowCounts = (0..<source.numberOfSections).map { source.numberOfRows(inSection: $0) }
        let filtering = searcher.isFiltering
        if filtering && searcher.index == nil {
            searcher.install(rowCounts.indices.map { foldedTexts(inSection: $0, rowCount: rowCounts[$0]) })
        }
        return FlatLayout(
            sections: rowCounts.indices.map { section in
                FlatLayout.Section(
                    title: source.title(forSection: section),
                    rowCount: rowCounts[section],
                    visibleRows: filtering
                        ? searcher.matchingRows(inSection: section, among: previous?.sections[section].visibleRows,
                                                matching: previous == nil ? nil : previousQuery)
                        : nil
                )
            }
        )
    }

    /// Delivers `changes` to the observers (nothing when empty).
    func emit(_ changes: [FlatChange]) {
        guard !changes.isEmpty else { return }
        guard collectedChanges == nil else {
            for change in changes { collectedChanges?.appendMerging(change) }
            return
        }
        flatObservers.announce(changes)
    }

    func emit(_ change: FlatChange?) {
        if let change { emit([change]) }
    }
}
