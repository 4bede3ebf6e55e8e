/// What the front end and its automation need of a widget showing a table's rows, whether a
/// list (``VirtualListView``) or columns (`ColumnTableView`): both read the same
/// ``VirtualListModel``.
@MainActor
protocol RowsWidget: AnyObject {
    /// The top widget, owned by the parent it is added to.
    var widget: Widget { get }
    /// The model GTK reads the rows from.
    var model: VirtualListModel { get }
    /// Called with the position of an activated row (click or Enter).
    var onActivate: ((Int) -> Void)? { get set }
    /// Called with the position of a row whose checkbox the user toggled.
    var onToggle: ((Int) -> Void)? { get set }
    /// Announces a change of the rows to GTK.
    func itemsChanged(position: Int, removed: Int, added: Int)
    /// The table's selection changed: when it went from no selected row to one, or back, every
    /// row says again whether it is selected (``ListRowSource/tellsSelection``), whether or not
    /// a row it shows changed.
    func selectionChanged()
    /// The widget that takes the keyboard focus (the list or column view).
    var focusTarget: Widget { get }
    /// The scrolled window around it. GTK 4.8 gives the scrolled window the focus itself when
    /// the focus comes from outside and the list does not take it at once: the front end then
    /// calls ``enterList()``.
    var scroller: Widget { get }
    /// Gives the focus to the row that had it last, else to the first row on screen; `false`
    /// when the list has no row widget yet.
    func enterList() -> Bool
    /// Names the list for screen readers: `title` and how many rows it shows.
    func describe(title: String, rows: Int)
    /// Scrolls to row `position` and gives it the keyboard focus; `false` while it has no widget.
    func focusRow(at position: Int) -> Bool
    /// Activates row `position`, as a click does (automation).
    func activate(position: Int)
    /// Clicks the checkbox of row `position`; `false` when it has none on screen (automation).
    func clickCheckbox(position: Int) -> Bool
    /// How many row widgets GTK had the factory build (automation: a search or a sort keeps them).
    var rowWidgetsBuilt: Int { get }
    /// The rows at least partly on screen, in position order (automation).
    func visibleRows() -> [(position: Int, text: String, checkbox: Bool?)]
}

extension VirtualListView: RowsWidget {}
