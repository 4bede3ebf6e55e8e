import CGtk

/// How a row that the table marks selected (``TableContainer/selection``) is drawn: its row
/// widget carries the style class `trellis-selected`, which the window's style tints with the
/// theme's selection colour (``WindowStyle``). GTK's own selection cannot show it: every row
/// of a table's list is selected to GTK (see `ListAccessibility.selection`). A row with a
/// checkbox is not tinted: the checkbox shows its state, and a checklist of ticked rows (the
/// plugins that are on, favourite genres) would otherwise turn into a column of highlights.
@MainActor
enum SelectedRow {
    static let styleClass = "trellis-selected"

    /// Marks GTK's row widget `row` (a list item's widget: the parent of a list's row content,
    /// the grandparent of a column view cell's box) tinted or not.
    static func mark(_ row: UnsafeMutablePointer<GtkWidget>, selected: Bool) {
        if selected { gtk_widget_add_css_class(row, styleClass) } else { gtk_widget_remove_css_class(row, styleClass) }
    }
}
