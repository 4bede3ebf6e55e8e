import CGtk
import CTrellisGtk
import TrellisCore

/// A list as a screen reader meets it: one node with the role "list", named by what it lists
/// and how many rows it has ("Catalog, rows: 214"), holding the rows.
///
/// GTK 4.8's list view gives the role to itself and exposes only the rows it has widgets for
/// (about 200 around the visible ones), so Orca announced "List with 205 items" for 214 genres
/// and the same for a million. Here the list view is a plain container inside a box that has
/// the role, and the count comes from the table itself; Orca then says "Catalog, rows: 214.
/// list." on entering the list, and each row by its name.
@MainActor
enum ListAccessibility {
    /// A box with the role "list" around `content`, expanding as it does.
    static func listContainer(around content: Widget) -> Box {
        let box = Box(retaining: makeWidget(gtk_box_get_type(), accessibleRole: GTK_ACCESSIBLE_ROLE_LIST))
        gtk_orientable_set_orientation(box.object.opaque, GTK_ORIENTATION_VERTICAL)
        gtk_widget_set_hexpand(content.widget, 1)
        gtk_widget_set_vexpand(content.widget, 1)
        gtk_widget_set_vexpand(box.widget, 1)
        gtk_box_append(box.object.as(), content.widget)
        return box
    }

    /// The selection model of a list: every row selected, always (see
    /// `trellis-all-selection.h`: GTK 4.8 focuses selectable rows only, and a screen reader
    /// would say "not selected" after every row of any other). The window's style draws no
    /// selection on these lists. Transfer full.
    static func selection(of model: OpaquePointer) -> OpaquePointer {
        trellis_all_selection_new(model)!
    }

    /// The name a list of `rows` rows is read by: "Catalog, rows: 214".
    static func name(_ title: String, rows: Int) -> String {
        tr("%@, rows: %@", title, String(rows))
    }

    /// Marks a row's widget checked or not (a checklist's row), or neither (`nil`).
    static func setChecked(_ row: UnsafeMutablePointer<GtkWidget>, _ checked: Bool?) {
        guard let checked else {
            gtk_accessible_reset_state(OpaquePointer(row), GTK_ACCESSIBLE_STATE_CHECKED)
            return
        }
        trellis_accessible_set_checked(OpaquePointer(row), checked ? GTK_ACCESSIBLE_TRISTATE_TRUE : GTK_ACCESSIBLE_TRISTATE_FALSE)
    }
}
