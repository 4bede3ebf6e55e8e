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
    /// Activates row `position`, as a click does (automation).
    func activate(position: Int)
    /// Clicks the checkbox of row `position`; `false` when it has none on screen (automation).
    func clickCheckbox(position: Int) -> Bool
    /// The rows at least partly on screen, in position order (automation).
    func visibleRows() -> [(position: Int, text: String, checkbox: Bool?)]
}

extension VirtualListView: RowsWidget {}
