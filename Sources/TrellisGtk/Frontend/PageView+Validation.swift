import CGtk

/// A form field a validation message is about: drawn as an error (the theme's `error` style)
/// and, for assistive technologies, invalid (`GTK_ACCESSIBLE_STATE_INVALID`, AT-SPI's
/// "invalid") and described by the message.
extension PageView {
    /// Marks field `id` invalid with `message` (the window's message label) as its error
    /// message, and every other field of the form valid; `nil` marks every field valid.
    func markInvalid(_ id: String?, message: Label) {
        for (field, widget) in fieldWidgets {
            let drawn = Self.drawn(widget)
            if field == id {
                gtk_widget_add_css_class(drawn, "error")
                Self.setInvalid(widget.widget, message: message)
            } else if gtk_widget_has_css_class(drawn, "error") != 0 {
                gtk_widget_remove_css_class(drawn, "error")
                gtk_accessible_reset_state(widget.object.opaque, GTK_ACCESSIBLE_STATE_INVALID)
                gtk_accessible_reset_relation(widget.object.opaque, GTK_ACCESSIBLE_RELATION_DESCRIBED_BY)
            }
        }
    }

    /// The widget to style: a text view's frame (the text view draws no border of its own).
    private static func drawn(_ widget: Widget) -> UnsafeMutablePointer<GtkWidget> {
        if widget is TextView, let frame = gtk_widget_get_parent(widget.widget) {
            return frame
        }
        return widget.widget
    }

    /// Sets the invalid state and ties the message to the field (both through their GValue
    /// forms: gtk_accessible_update_state and _relation are variadic). GTK 4.8's AT-SPI bridge
    /// passes on neither `ERROR_MESSAGE` nor any single-reference relation, so the message is
    /// the field's `DESCRIBED_BY` (what a screen reader reads after the field's name); the
    /// invalid state reaches AT-SPI as `INVALID` (later GTK versions: `INVALID_ENTRY`).
    private static func setInvalid(_ widget: UnsafeMutablePointer<GtkWidget>, message: Label) {
        var invalid = GValue()
        var state = GTK_ACCESSIBLE_STATE_INVALID
        // GTK 4.8 reads this token with g_value_get_int, though gtk_accessible_state_init_value
        // makes an enum value (a CRITICAL, and the state not set): give it an int.
        g_value_init(&invalid, GType(6 << 2))  // G_TYPE_INT = G_TYPE_MAKE_FUNDAMENTAL (6), a macro Swift cannot see
        g_value_set_int(&invalid, gint(GTK_ACCESSIBLE_INVALID_TRUE.rawValue))
        gtk_accessible_update_state_value(OpaquePointer(widget), 1, &state, &invalid)
        g_value_unset(&invalid)
        var references = GValue()
        var relation = GTK_ACCESSIBLE_RELATION_DESCRIBED_BY
        gtk_accessible_relation_init_value(relation, &references)
        // GTK takes the list (transfer full: its reference-list value frees it); the label it
        // holds is the window's, alive as long as the window.
        g_value_set_pointer(&references, g_list_append(nil, message.object))
        gtk_accessible_update_relation_value(OpaquePointer(widget), 1, &relation, &references)
        g_value_unset(&references)
    }
}
