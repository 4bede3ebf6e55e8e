import CGtk

/// What automation and tests read of the window.
extension ShellWindow {
    /// The type of the renderer drawing the window, such as `GskCairoRenderer` (automation;
    /// see ``RendererChoice``); empty before the window is realized.
    var rendererName: String {
        guard let renderer = gtk_native_get_renderer(window.object.opaque) else { return "" }
        // Safe: the window keeps its renderer alive, and a GskRenderer is a GObject, whose
        // memory starts with its GTypeInstance; g_type_name returns a string GLib owns.
        return String(cString: g_type_name_from_instance(gobj(renderer).as()))
    }

    /// The message shown above the page, if any (automation).
    var message: String? {
        messageLabel.isVisible ? messageLabel.text : nil
    }

    /// The status line, if shown (automation).
    var status: String? {
        statusLabel.isVisible ? statusLabel.text : nil
    }

    /// The window title, with the badge count if any (automation).
    var title: String { gtk_window_get_title(window.object.as()).map { String(cString: $0) } ?? "" }
}
