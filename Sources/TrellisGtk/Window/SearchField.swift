import CGtk
import TrellisCore

/// The window's search bar: a `GtkSearchBar` holding a `GtkSearchEntry`, at the top of the
/// page area, shown by the header bar's search toggle (bound both ways), Ctrl+F, or typing in
/// the list on screen. ``ShellWindow`` makes it when a page can first be searched: a window
/// that has shown no such page has none (the window's first frame, on the hub, is spared its
/// widgets: 2.2 M of the start's 193 M instructions on the main thread, and their styles).
@MainActor
final class SearchField {
    let bar: SearchBar
    let entry: SearchEntry
    /// Called as the search text changes.
    var onChanged: ((String) -> Void)?

    init(toggle: ToggleButton) {
        entry = SearchEntry(gtk_search_entry_new())
        gtk_widget_set_hexpand(entry.widget, 1)
        // Filtering is local and fast: each keystroke shows its result at once, instead of after
        // GTK's default 150 ms pause (measured: `trellis-bench typing`).
        gtk_search_entry_set_search_delay(entry.object.opaque, 0)
        bar = SearchBar(gtk_search_bar_new())
        gtk_search_bar_set_child(bar.object.opaque, entry.widget)
        gtk_search_bar_connect_entry(bar.object.opaque, entry.object.opaque)
        gtk_search_bar_set_show_close_button(bar.object.opaque, 1)
        // Screen readers would read "GtkSearchEntry" and "GtkImage" (the close button) otherwise.
        entry.setAccessibleLabel(tr("Search"))
        ShellWindow.nameButtons(in: bar.widget, tr("Close search"))
        g_object_bind_property(toggle.object.as(), "active", bar.object.as(), "search-mode-enabled",
                               GBindingFlags(rawValue: G_BINDING_BIDIRECTIONAL.rawValue | G_BINDING_SYNC_CREATE.rawValue))
        // A hidden search bar leaves no filter behind (Escape, its close button, Back).
        bar.connectNotify("search-mode-enabled") { [weak self] in
            guard let self, !self.isActive, !self.text.isEmpty else { return }
            gtk_editable_set_text(self.entry.object.opaque, "")
        }
        entry.connect("search-changed") { [weak self] in
            guard let self else { return }
            self.onChanged?(self.text)
        }
    }

    var isActive: Bool { gtk_search_bar_get_search_mode(bar.object.opaque) != 0 }

    /// Shows or hides the bar; shown, it takes the focus unless `focus` is `false`.
    func setActive(_ active: Bool, focus: Bool) {
        gtk_search_bar_set_search_mode(bar.object.opaque, active ? 1 : 0)
        if active && focus { _ = gtk_widget_grab_focus(entry.widget) }
    }

    /// The widget whose typing opens the bar and goes into it, or none.
    func setKeyCaptureWidget(_ widget: Widget?) {
        gtk_search_bar_set_key_capture_widget(bar.object.opaque, widget?.widget)
    }

    /// The text in the entry.
    var text: String { String(cString: gtk_editable_get_text(entry.object.opaque)) }

    /// Replaces the text as typing would: letters typed on are inserted at the end, letters
    /// erased are deleted from it, so the field changes once, as it does for a keystroke
    /// (`search-changed` follows); other text replaces the whole.
    func setText(_ newText: String) {
        // GTK counts positions in characters (code points), as `unicodeScalars` does.
        let current = text.unicodeScalars, typed = newText.unicodeScalars
        if !current.isEmpty && typed.starts(with: current) {
            var end = Int32(current.count)
            gtk_editable_insert_text(entry.object.opaque, String(typed.dropFirst(current.count)), -1, &end)
        } else if !typed.isEmpty && current.starts(with: typed) {
            gtk_editable_delete_text(entry.object.opaque, Int32(typed.count), -1)
        } else {
            gtk_editable_set_text(entry.object.opaque, newText)
        }
    }
}
