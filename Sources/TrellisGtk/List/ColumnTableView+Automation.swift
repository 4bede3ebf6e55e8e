import CGtk
import CTrellisGtk

/// Acting as the user on a ``ColumnTableView`` and reading what it shows (automation).
extension ColumnTableView {
    func activate(position: Int) {
        trellis_column_view_emit_activate(columnView.object.opaque, guint(position))
    }

    func clickCheckbox(position: Int) -> Bool {
        guard let listItem = bound.first?.first(where: { Int(gtk_list_item_get_position($0.opaque)) == position }),
              let box = gtk_list_item_get_child(listItem.opaque), let check = gtk_widget_get_first_child(box),
              check != gtk_widget_get_last_child(box), gtk_widget_get_visible(check) != 0 else { return false }
        // Activating the widget is what a click does: it flips the state and emits "toggled".
        return gtk_widget_activate(check) != 0
    }

    /// The rows on screen; a row's text is its cells' texts joined by " · ", as a list shows it.
    func visibleRows() -> [(position: Int, text: String, checkbox: Bool?)] {
        cellTexts().map { row in (row.position, row.cells.joined(separator: " · "), row.checkbox) }
    }

    /// The rows on screen with each column's text, in position order.
    func cellTexts() -> [(position: Int, cells: [String], checkbox: Bool?)] {
        let viewport = graphene_rect_t(origin: .init(x: 0, y: 0),
                                       size: .init(width: Float(widget.width), height: Float(widget.height)))
        var rows: [Int: (cells: [String], checkbox: Bool?)] = [:]
        for (column, items) in bound.enumerated() {
            for listItem in items {
                guard let box = gtk_list_item_get_child(listItem.opaque), gtk_widget_get_mapped(box) != 0 else { continue }
                var bounds = graphene_rect_t()
                guard gtk_widget_compute_bounds(box, widget.widget, &bounds) != 0 else { continue }
                var copy = viewport
                // Rows count when they are vertically on screen, wherever the column is scrolled.
                copy.origin.x = bounds.origin.x
                guard graphene_rect_intersection(&copy, &bounds, nil), bounds.size.height > 0 else { continue }
                let position = Int(gtk_list_item_get_position(listItem.opaque))
                var row = rows[position] ?? (Array(repeating: "", count: bound.count), nil)
                row.cells[column] = String(cString: gtk_label_get_text(OpaquePointer(gtk_widget_get_last_child(box))))
                if column == 0, let check = gtk_widget_get_first_child(box), check != gtk_widget_get_last_child(box),
                   gtk_widget_get_visible(check) != 0 {
                    row.checkbox = gtk_check_button_get_active(GObjectPointer(check).as()) != 0
                }
                rows[position] = row
            }
        }
        return rows.sorted { $0.key < $1.key }.map { (position: $0.key, cells: $0.value.cells, checkbox: $0.value.checkbox) }
    }
}
