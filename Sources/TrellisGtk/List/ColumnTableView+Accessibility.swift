import CGtk
import TrellisCore

/// A table with columns as a screen reader meets it. GTK 4.8's column view focuses whole rows
/// and gives its parts no names (Orca read "GtkListItemWidget" for a row, "GtkColumnViewCell"
/// for a cell), and no table interface tells a screen reader a cell's column header: so each
/// row is named by its cells with their headers ("First name Ada, Surname Lovelace, Age 36"),
/// each cell by its text and described by its header, and each header by its title. (GTK 4.8
/// gives a header the role "filler", fixed when it makes it; GTK 4.10 and later make it a
/// column header.)
extension ColumnTableView {
    /// Names the header row and each column's title.
    func nameColumnHeaders() {
        guard let header = gtk_widget_get_first_child(columnView.widget) else { return }
        setAccessibleLabel(GObjectPointer(header), columnTitles.joined(separator: ", "))
        var title = gtk_widget_get_first_child(header)
        for name in columnTitles {
            guard let current = title else { break }
            setAccessibleLabel(GObjectPointer(current), name)
            hideIcons(in: current)  // the sort arrow
            title = gtk_widget_get_next_sibling(current)
        }
    }

    /// What a row is read as: each cell after its column's title.
    func rowName(_ cells: [String]) -> String {
        zip(columnTitles, cells).filter { !$0.1.isEmpty }.map { "\($0.0) \($0.1)" }.joined(separator: ", ")
    }

    /// Names the cell around `box` (`text`, described by its column's title) and, when `row`
    /// is given, the row around it (and marks it checked or not).
    func nameCell(of box: UnsafeMutablePointer<GtkWidget>, column: Int, text: String, row: String?, checked: Bool?) {
        guard let cell = gtk_widget_get_parent(box) else { return }
        setAccessibleLabel(GObjectPointer(cell), text)
        if columnTitles.indices.contains(column) { setAccessibleDescription(GObjectPointer(cell), columnTitles[column]) }
        guard let row, let rowWidget = gtk_widget_get_parent(cell) else { return }
        setAccessibleLabel(GObjectPointer(rowWidget), row)
        ListAccessibility.setChecked(rowWidget, checked)
    }

    // MARK: - Focus

    /// The widget that takes the keyboard focus: the column view.
    var focusTarget: Widget { columnView }

    /// Names the table for screen readers: `title` and how many rows it shows — the table, and
    /// the list of rows under its headers, which is what a screen reader announces on entering.
    func describe(title: String, rows: Int) {
        let name = ListAccessibility.name(title, rows: rows)
        columnView.setAccessibleLabel(name)
        if let header = gtk_widget_get_first_child(columnView.widget), let list = gtk_widget_get_next_sibling(header) {
            setAccessibleLabel(GObjectPointer(list), name)
        }
    }

    /// The `GtkScrolledWindow` around the column view.
    var scroller: Widget { widget }

    /// Gives the focus to the row that had it last, else to the first row on screen.
    func enterList() -> Bool {
        if gtk_widget_grab_focus(columnView.widget) != 0, columnView.focusIsInside { return true }
        return focusRow(at: cellTexts().first?.position ?? 0)
    }

    /// Scrolls to row `position` and gives it the keyboard focus; `false` while it has no widget.
    func focusRow(at position: Int) -> Bool {
        guard let rows = gtk_widget_get_last_child(columnView.widget) else { return false }
        gtk_widget_activate_action_variant(rows, "list.scroll-to-item", g_variant_new_uint32(guint32(position)))
        guard let listItem = bound.first?.first(where: { Int(gtk_list_item_get_position($0.opaque)) == position }),
              let box = gtk_list_item_get_child(listItem.opaque), let cell = gtk_widget_get_parent(box),
              let row = gtk_widget_get_parent(cell) else { return false }
        return gtk_widget_grab_focus(row) != 0
    }
}
