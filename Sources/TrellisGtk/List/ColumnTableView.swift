import CGtk
import CTrellisGtk

/// A `GtkColumnView` in a `GtkScrolledWindow` over a ``VirtualListModel``: one
/// `GtkColumnViewColumn` per column, titled, resizable and sortable by a click on its
/// header. The records' counterpart of ``VirtualListView``, over the same C model (no row
/// is copied): each cell shows one of the row's `columns`.
///
/// The view sorts nothing itself: a header click reaches ``onSort`` with the column and the
/// direction, and the table's source reorders (see `TableContainer.sort(by:ascending:)`).
/// Widgets and their signal closures are owned by GTK and released with the view.
///
/// Pointers: every `GObjectPointer` here is GTK's, used on the main thread only: the
/// columns and the view while the scrolled window (which owns them) lives, list items only
/// between their `bind` and `unbind` (``bound`` holds exactly those), and row items only
/// while their list item shows them.
@MainActor
final class ColumnTableView: RowsWidget {
    let widget: Widget
    /// The `GtkColumnView`.
    let columnView: ColumnView
    let model: VirtualListModel
    /// The columns' `GtkColumnViewColumn`s, in order (owned by the view).
    private let columns: [ColumnViewColumn]
    /// The columns' titles, in order.
    let columnTitles: [String]

    var onActivate: ((Int) -> Void)?
    var onToggle: ((Int) -> Void)?
    /// Called with a column's index and whether ascending when the user sorts by its header.
    var onSort: ((Int, Bool) -> Void)?

    /// The cells bound now, per column: GTK's list items of that column.
    private(set) var bound: [Set<GObjectPointer>]
    private var binding = false
    /// The source's ``ListRowSource/tellsSelection`` when the rows were last bound.
    private var tellsSelection = false
    /// How many rows GTK had the factory build (their first column's cells).
    private(set) var rowWidgetsBuilt = 0
    /// How many rows GTK was told of.
    private var shownCount: Int
    /// While the view's sort indicator is set from the table, not by the user.
    private var showingSort = false

    init(source: any ListRowSource, titles: [String]) {
        model = VirtualListModel(source: source)
        // The selection and GtkColumnView take ownership ("transfer full") of what they are
        // given: hand each one a reference of its own.
        g_object_ref(model.pointer)
        let selection = ListAccessibility.selection(of: model.listModel)
        columnView = ColumnView(gtk_column_view_new(selection))
        widget = makeScrolledWindow()
        gtk_scrolled_window_set_child(widget.object.opaque, columnView.widget)
        gtk_scrolled_window_set_policy(widget.object.opaque, GTK_POLICY_AUTOMATIC, GTK_POLICY_AUTOMATIC)
        gtk_widget_set_vexpand(widget.widget, 1)
        gtk_column_view_set_single_click_activate(columnView.object.opaque, 1)
        gtk_column_view_set_show_column_separators(columnView.object.opaque, 1)
        columnView.addStyleClass("trellis-list")
        bound = Array(repeating: [], count: titles.count)
        shownCount = model.count
        var columns: [ColumnViewColumn] = []
        var factories: [ListItemFactory] = []
        for (index, title) in titles.enumerated() {
            let factory = ListItemFactory(taking: GObjectPointer(gtk_signal_list_item_factory_new())!)
            factories.append(factory)
            // The column takes a reference to the factory (the wrapper keeps its own); the view
            // takes one of the column, beside the wrapper's.
            g_object_ref(factory.object)
            let column = ColumnViewColumn(taking: GObjectPointer(gtk_column_view_column_new(title, factory.object.opaque))!)
            gtk_column_view_column_set_resizable(column.object.opaque, 1)
            gtk_column_view_column_set_expand(column.object.opaque, 1)
            let sorter = trellis_column_sorter_new(guint(index))!
            gtk_column_view_column_set_sorter(column.object.opaque, sorter)
            g_object_unref(sorter)
            gtk_column_view_append_column(columnView.object.opaque, column.object.opaque)
            columns.append(column)
        }
        self.columns = columns
        columnTitles = titles
        nameColumnHeaders()
        ListKeys.makeOneTabStop(columnView)
        // GTK 4.8 declares the factory's argument a GObject; it is always a GtkListItem.
        let listItem = g_object_get_type()
        for (index, factory) in factories.enumerated() {
            factory.connect("setup", object: listItem) { [weak self] item in self?.setup(item, column: index) }
            factory.connect("bind", object: listItem) { [weak self] item in self?.bind(item, column: index) }
            factory.connect("unbind", object: listItem) { [weak self] item in self?.bound[index].remove(item) }
        }
        // The view's sorter is "transfer none" and lives as long as the view, which outlives
        // nothing we hold: the handler (and its box) goes when the sorter is finalized.
        Signals.connect(gobj(gtk_column_view_get_sorter(columnView.object.opaque)!), "changed", enumeration: { [weak self] _ in
            self?.sorterChanged()
        })
        columnView.connect("activate", unsignedInteger: { [weak self] position in
            self?.onActivate?(Int(position))
        })
    }

    /// Announces a change of the rows. A sort replaces every row: the model tells it in two
    /// steps, which costs GTK the rows shown, not all of them; and the rows GTK has widgets for
    /// at the first replaced positions keep them, filled with the new rows (as
    /// ``VirtualListView/itemsChanged(position:removed:added:)`` does), instead of GTK tearing
    /// down and building again every shown row, its cells and their accessible objects.
    func itemsChanged(position: Int, removed: Int, added: Int) {
        // GTK binds new rows while the model announces the change: compared with before it.
        let toldSelection = tellsSelection
        shownCount += added - removed
        let replaced = position..<position + min(removed, added)
        // The first column's cells carry the row items GTK holds, one per row.
        var byPosition: [Int: GObjectPointer] = [:]
        for listItem in bound[0] {
            let at = Int(gtk_list_item_get_position(listItem.opaque))
            if replaced.contains(at), let item = gtk_list_item_get_item(listItem.opaque) { byPosition[at] = item }
        }
        var items: [GObjectPointer] = []
        while let item = byPosition[position + items.count] { items.append(item) }
        model.itemsChanged(position: position, removed: removed, added: added, reusing: items)
        // GTK kept these rows with the same items, now carrying the new rows: show them.
        // The first row selected or the last one deselected: every row says so again.
        let reused = position..<position + items.count
        let retell = model.source.tellsSelection != toldSelection
        for (column, cells) in bound.enumerated() {
            for listItem in cells where retell || reused.contains(Int(gtk_list_item_get_position(listItem.opaque))) {
                bind(listItem, column: column)
            }
        }
    }

    func selectionChanged() {
        guard model.source.tellsSelection != tellsSelection else { return }
        for (column, cells) in bound.enumerated() {
            for listItem in cells { bind(listItem, column: column) }
        }
    }

    // MARK: - Sorting

    /// The column the view shows as sorted and the direction, or nil.
    var sortedColumn: (index: Int, ascending: Bool)? {
        var ascending: gboolean = 1
        let index = trellis_column_view_sorted_column(columnView.object.opaque, &ascending)
        return index < 0 ? nil : (Int(index), ascending != 0)
    }

    /// Sorts by column `index` as a click on its header does (automation): the view's
    /// sorter changes and ``onSort`` is called.
    func sort(column index: Int, ascending: Bool) {
        gtk_column_view_sort_by_column(columnView.object.opaque, columns[index].object.opaque,
                                       ascending ? GTK_SORT_ASCENDING : GTK_SORT_DESCENDING)
    }

    /// Shows the table's sort order in the headers without calling ``onSort``.
    func showSort(column index: Int?, ascending: Bool) {
        showingSort = true
        defer { showingSort = false }
        gtk_column_view_sort_by_column(columnView.object.opaque, index.map { columns[$0].object.opaque },
                                       ascending ? GTK_SORT_ASCENDING : GTK_SORT_DESCENDING)
    }

    /// The columns' titles, as their headers show them.
    var titles: [String] {
        columns.map { column in gtk_column_view_column_get_title(column.object.opaque).map { String(cString: $0) } ?? "" }
    }

    private func sorterChanged() {
        guard !showingSort, let sorted = sortedColumn else { return }
        onSort?(sorted.index, sorted.ascending)
    }

    // MARK: - Factory

    /// A cell: a label; the first column's also has a check box, shown for rows that have one.
    private func setup(_ listItem: GObjectPointer, column: Int) {
        if column == 0 { rowWidgetsBuilt += 1 }
        let box = GObjectPointer(gtk_box_new(GTK_ORIENTATION_HORIZONTAL, 8))!
        let label = GObjectPointer(gtk_label_new(nil))!
        gtk_label_set_xalign(label.as(), 0)
        gtk_label_set_ellipsize(label.as(), PANGO_ELLIPSIZE_END)
        gtk_label_set_single_line_mode(label.as(), 1)
        gtk_widget_set_hexpand(label.as(), 1)
        if column == 0 {
            let check = GObjectPointer(gtk_check_button_new())!
            hideIcons(in: check.as())
            gtk_widget_set_visible(check.as(), 0)
            gtk_box_append(box.as(), check.as())
            Signals.connect(check, "toggled") { [weak self] in
                guard let self, !self.binding else { return }
                self.onToggle?(Int(gtk_list_item_get_position(listItem.opaque)))
            }
        }
        gtk_box_append(box.as(), label.as())
        gtk_widget_set_margin_top(box.as(), 4)
        gtk_widget_set_margin_bottom(box.as(), 4)
        gtk_list_item_set_child(listItem.opaque, box.as())
    }

    private func bind(_ listItem: GObjectPointer, column: Int) {
        guard let item = gtk_list_item_get_item(listItem.opaque), let row = VirtualListModel.row(of: item),
              let box = gtk_list_item_get_child(listItem.opaque) else { return }
        let label = GObjectPointer(gtk_widget_get_last_child(box))!
        let check = column == 0 ? gtk_widget_get_first_child(box).map(GObjectPointer.init) : nil
        binding = true
        defer { binding = false }
        bound[column].insert(listItem)
        tellsSelection = model.source.tellsSelection
        // Said of the row and of each of its cells alike (GTK 4.8 selects each cell too).
        if let cell = gtk_widget_get_parent(box) { SelectedRow.tell(cell, row, tellsSelection: tellsSelection) }
        if let rowWidget = Self.rowWidget(of: box) { SelectedRow.tell(rowWidget, row, tellsSelection: tellsSelection) }
        switch row {
        case .header(let title):
            gtk_label_set_text(label.as(), column == 0 ? title : "")
            gtk_widget_add_css_class(label.as(), "heading")
            if let check { gtk_widget_set_visible(check.as(), 0) }
            if let row = Self.rowWidget(of: box) { SelectedRow.mark(row, selected: false) }
            gtk_list_item_set_activatable(listItem.opaque, 0)
            gtk_list_item_set_selectable(listItem.opaque, 0)
            nameCell(of: box, column: column, text: column == 0 ? title : "", row: column == 0 ? title : nil, checked: nil)
        case .item(let columns, let checkbox, let selected):
            let text = columns.indices.contains(column) ? columns[column] : ""
            gtk_label_set_text(label.as(), text.contains("\n") ? text.replacingOccurrences(of: "\n", with: " ") : text)
            gtk_widget_remove_css_class(label.as(), "heading")
            if let check {
                gtk_widget_set_visible(check.as(), checkbox == nil ? 0 : 1)
                gtk_check_button_set_active(check.as(), checkbox == true ? 1 : 0)
            }
            if let row = Self.rowWidget(of: box) { SelectedRow.mark(row, selected: selected && checkbox == nil) }
            gtk_list_item_set_activatable(listItem.opaque, 1)
            // GTK 4.8 focuses only a selectable row (see ListAccessibility.selection).
            gtk_list_item_set_selectable(listItem.opaque, 1)
            nameCell(of: box, column: column, text: text, row: column == 0 ? rowName(columns) : nil, checked: checkbox)
        }
    }

    /// GTK's row widget around a cell's `box`: the box's cell's parent.
    private static func rowWidget(of box: UnsafeMutablePointer<GtkWidget>) -> UnsafeMutablePointer<GtkWidget>? {
        gtk_widget_get_parent(box).flatMap(gtk_widget_get_parent)
    }
}
