import CGtk

/// The keys of a list that GTK 4.8 does not give it: the list is one stop of the Tab order
/// (arrows move between its rows; Tab and Shift+Tab leave it for the next or previous control,
/// as GTK 4.12's `GTK_LIST_TAB_ITEM` does) instead of a stop per row — 214 stops for the
/// catalog, a million for a million rows. (That the stop is a row, not the scrolled window
/// around the list, is `GtkFrontend`'s: see ``RowsWidget/enterList()``.)
@MainActor
enum ListKeys {
    /// Holds a shortcut's handler for GTK (released with the shortcut).
    final class Handler {
        let body: @MainActor () -> Bool
        init(_ body: @escaping @MainActor () -> Bool) { self.body = body }
    }

    /// Makes `list` (a list or column view) one stop of the Tab order.
    static func makeOneTabStop(_ list: Widget) {
        let controller = gtk_shortcut_controller_new()!
        gtk_event_controller_set_propagation_phase(controller, GTK_PHASE_CAPTURE)
        for (trigger, forward) in [("Tab", true), ("<Shift>Tab|<Shift>ISO_Left_Tab", false)] {
            add(trigger, to: controller) { [weak list] in
                guard let list else { return false }
                return leave(list, forward: forward)
            }
        }
        gtk_widget_add_controller(list.widget, controller)
    }

    /// Adds a shortcut to `controller` that calls `body` (`true`: the key was handled).
    static func add(_ trigger: String, to controller: OpaquePointer,
                    _ body: @escaping @MainActor () -> Bool) {
        let callback: GtkShortcutFunc = { _, _, data in
            // Safe: `data` is the handler retained below, released by `release` with the shortcut.
            let handler = Unmanaged<Handler>.fromOpaque(data!).takeUnretainedValue()
            return MainActor.assumeIsolated { handler.body() } ? 1 : 0
        }
        let release: GDestroyNotify = { data in Unmanaged<Handler>.fromOpaque(data!).release() }
        let shortcut = gtk_shortcut_new(gtk_shortcut_trigger_parse_string(trigger),
                                        gtk_callback_action_new(callback, Unmanaged.passRetained(Handler(body)).toOpaque(), release))
        gtk_shortcut_controller_add_shortcut(controller, shortcut)
    }

    /// Moves the focus from inside `list` to the next (or previous) control outside it: the
    /// list refuses the focus while the window looks for that control.
    private static func leave(_ list: Widget, forward: Bool) -> Bool {
        guard let root = gtk_widget_get_root(list.widget) else { return false }
        gtk_widget_set_can_focus(list.widget, 0)
        defer { gtk_widget_set_can_focus(list.widget, 1) }
        // Safe: a GtkRoot is a GtkWidget (the window).
        let window = UnsafeMutableRawPointer(root).assumingMemoryBound(to: GtkWidget.self)
        _ = gtk_widget_child_focus(window, forward ? GTK_DIR_TAB_FORWARD : GTK_DIR_TAB_BACKWARD)
        return true
    }
}
