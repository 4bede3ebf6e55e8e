import CGtk
import CTrellisGtk

/// How a row that the table marks selected (``TableContainer/selection``) is drawn: its row
/// widget carries the style class `trellis-selected`, which the window's style tints with the
/// theme's selection colour (``WindowStyle``). GTK's own selection cannot show it: every row
/// of a table's list is selected to GTK (see `ListAccessibility.selection`). A row with a
/// checkbox is not tinted: the checkbox shows its state, and a checklist of ticked rows (the
/// plugins that are on, favourite genres) would otherwise turn into a column of highlights.
///
/// A screen reader is told the same through the row's accessible state "selected"
/// (``tell(_:_:tellsSelection:)``), while the table has a selected row. Orca says "not
/// selected" after every row of a list that lacks that state, so a table with nothing
/// selected, or without selection, leaves every row "selected", as GTK has it.
@MainActor
enum SelectedRow {
    static let styleClass = "trellis-selected"

    /// Marks GTK's row widget `row` (a list item's widget: the parent of a list's row content,
    /// the grandparent of a column view cell's box) tinted or not.
    static func mark(_ row: UnsafeMutablePointer<GtkWidget>, selected: Bool) {
        if selected { gtk_widget_add_css_class(row, styleClass) } else { gtk_widget_remove_css_class(row, styleClass) }
    }

    /// Tells assistive technologies the selection of `listRow`, shown by GTK's row widget (or
    /// column-view cell) `row`. `tellsSelection`: the source's ``ListRowSource/tellsSelection``.
    static func tell(_ row: UnsafeMutablePointer<GtkWidget>, _ listRow: ListRow, tellsSelection: Bool) {
        trellis_accessible_set_row_selection(row, selection(of: listRow, tellsSelection: tellsSelection))
    }

    /// While the table tells its selection: a header is not selectable, an item selected or
    /// not (a checklist's row says so by its checkbox, and stays "selected"); else every row
    /// is "selected".
    private static func selection(of listRow: ListRow, tellsSelection: Bool) -> TrellisRowSelection {
        guard tellsSelection else { return TRELLIS_ROW_SELECTED }
        switch listRow {
        case .header: return TRELLIS_ROW_NOT_SELECTABLE
        case .item(_, let checkbox, let selected):
            return checkbox != nil || selected ? TRELLIS_ROW_SELECTED : TRELLIS_ROW_NOT_SELECTED
        }
    }
}
