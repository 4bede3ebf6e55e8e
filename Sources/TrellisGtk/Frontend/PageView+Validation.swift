import CGtk
import CTrellisGtk

/// A form field a validation message is about: drawn as an error (the theme's `error` style)
/// and, for assistive technologies, invalid (`GTK_ACCESSIBLE_STATE_INVALID`, AT-SPI's
/// "invalid") and described by the message.
extension PageView {
    /// Marks field `id` invalid with `message` (the window's message label) as its error
    /// message, and every other field of the form valid; `nil` marks every field valid.
    ///
    /// The invalid field's description becomes the message (its help comes back once it is
    /// valid): a screen reader reads it with the field, and speaks it when it changes while
    /// the field has the focus — Orca does not speak GTK 4.8's alert as it appears. Returns
    /// the field newly marked, if any, for the window to move the focus to.
    @discardableResult
    func markInvalid(_ id: String?, message: Label) -> Widget? {
        var newlyMarked: Widget?
        for (field, widget) in fieldWidgets {
            let drawn = Self.drawn(widget)
            if field == id {
                if gtk_widget_has_css_class(drawn, "error") == 0 || invalidMessage != message.text { newlyMarked = widget }
                gtk_widget_add_css_class(drawn, "error")
                trellis_accessible_set_invalid(widget.object.opaque, message.widget)
                setAccessibleDescription(widget.object, message.text, remember: false)
            } else if gtk_widget_has_css_class(drawn, "error") != 0 {
                gtk_widget_remove_css_class(drawn, "error")
                trellis_accessible_set_invalid(widget.object.opaque, nil)
                restoreAccessibleDescription(widget.object)
            }
        }
        invalidMessage = id == nil ? nil : message.text
        return newlyMarked
    }

    /// The widget to style: a text view's frame (the text view draws no border of its own).
    private static func drawn(_ widget: Widget) -> UnsafeMutablePointer<GtkWidget> {
        if widget is TextView, let frame = gtk_widget_get_parent(widget.widget) {
            return frame
        }
        return widget.widget
    }
}
