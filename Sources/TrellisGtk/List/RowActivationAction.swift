import CGtk
import CTrellisGtk

/// The action `row.activate` on a list row widget, which GTK 4.8's AT-SPI bridge offers as the
/// row's action: a screen reader (or any AT-SPI client) can open the row as a click does. GTK
/// offers no action of its own on a `GtkListView` row or a `GtkListBoxRow`.
@MainActor
enum RowActivationAction {
    /// Gives `row` (a list view's row widget or a `GtkListBoxRow`) the action `row.activate`,
    /// once, which activates the row as Enter does: its list view emits `activate` with the
    /// row's position (unless the row is not activatable), its list box `row-activated`
    /// (`trellis-row-activation.h`).
    static func offer(on row: UnsafeMutablePointer<GtkWidget>) {
        trellis_row_offer_activation(row)
    }
}
