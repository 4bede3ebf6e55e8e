import CGtk
import CTrellisGtk
import Foundation
import TrellisCore

/// Where the keyboard focus goes as pages come and go, and what screen readers are told away
/// from it.
extension ShellWindow {
    /// Tells screen readers of `text`, a change away from the focus (``Announcer``), once the
    /// focus has settled after the next frame.
    func announce(_ text: String) {
        announcer.prepare(text)
        afterNextFrame { [weak self] in self?.announcer.deliver() }
    }

    /// Whether a pointer button is held down in the window now (a click under way).
    var isPointerButtonDown: Bool {
        guard let surface = gtk_native_get_surface(window.object.opaque), let display = gdk_display_get_default(),
              let seat = gdk_display_get_default_seat(display), let pointer = gdk_seat_get_pointer(seat) else { return false }
        var x = 0.0, y = 0.0
        var mask = GdkModifierType(rawValue: 0)
        gdk_surface_get_device_position(surface, pointer, &x, &y, &mask)
        let buttons = GDK_BUTTON1_MASK.rawValue | GDK_BUTTON2_MASK.rawValue | GDK_BUTTON3_MASK.rawValue
        return mask.rawValue & buttons != 0
    }

    /// Gives the page now on top the keyboard focus (`widget`: its list or first field), as it
    /// comes to the top: from a button of the header bar ("New note", Back), from the menu, a
    /// shortcut or a link. A person browsing the sections in the sidebar keeps the focus
    /// there; a page with nothing to focus leaves the focus where it is, if it is on screen.
    func focus(page widget: Widget?) {
        guard !sidebar.hasFocus, let widget else { return }
        // After GTK's own move of the focus from the page that went (GtkStack passes it on to
        // the new page's first control, Tab-wise, once it shows it). An announcement made
        // meanwhile goes where the focus ends up.
        announcer.placementBegan()
        DispatchQueue.main.async { [weak self, weak widget] in
            MainActor.assumeIsolated {
                guard let self else { return }
                defer { self.announcer.placementEnded() }
                guard let widget, !self.sidebar.hasFocus, gtk_widget_get_mapped(widget.widget) != 0 else { return }
                if !widget.isFocus && !widget.focusIsInside { gtk_widget_grab_focus(widget.widget) }
            }
        }
    }

    /// Gives `widget` the keyboard focus when no widget on screen has it (the focused one went
    /// with the page it was on).
    func ensureFocus(on widget: Widget?) {
        guard let widget else { return }
        if let focus = gtk_root_get_focus(window.object.opaque), gtk_widget_get_mapped(focus) != 0,
           gtk_widget_get_child_visible(focus) != 0 { return }
        gtk_widget_grab_focus(widget.widget)
    }
}

extension ShellWindow {
    /// Names every button inside `widget` (GTK's own, such as the search bar's close button).
    static func nameButtons(in widget: UnsafeMutablePointer<GtkWidget>, _ name: String) {
        var child = gtk_widget_get_first_child(widget)
        while let current = child {
            if trellis_widget_is_button(current) != 0 {
                setAccessibleName(GObjectPointer(current), name)
            }
            nameButtons(in: current, name)
            child = gtk_widget_get_next_sibling(current)
        }
    }
}
