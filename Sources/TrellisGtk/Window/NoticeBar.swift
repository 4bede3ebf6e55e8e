import CGtk
import TrellisCore

/// The window's in-app notification: a bar that slides down from under the header bar, over
/// the page, showing one notice ("Deleted “Groceries”") with its Undo button and a close
/// button. GTK 4.8 widgets only (a `GtkRevealer` styled `app-notification`, as GNOME's apps
/// drew these before libadwaita's toasts); the text is an alert for screen readers.
@MainActor
final class NoticeBar {
    /// The revealer to lay over the page (top centre).
    let widget: Revealer
    let label: Label
    let undoButton: Button
    let closeButton: Button
    /// Called when Undo is pressed.
    var onUndo: (() -> Void)?
    /// Called when the close button is pressed.
    var onClose: (() -> Void)?

    init() {
        widget = Revealer(gtk_revealer_new())
        gtk_revealer_set_transition_type(widget.object.as(), GTK_REVEALER_TRANSITION_TYPE_SLIDE_DOWN)
        gtk_widget_set_halign(widget.widget, GTK_ALIGN_CENTER)
        gtk_widget_set_valign(widget.widget, GTK_ALIGN_START)
        let box = Box(gtk_box_new(GTK_ORIENTATION_HORIZONTAL, 12))
        box.addStyleClass("app-notification")
        box.addStyleClass("osd")
        box.addStyleClass("trellis-notice")
        label = Label(retaining: makeAlertLabel())
        // One line while it fits (GTK 4 would otherwise wrap at every word), at most 50
        // characters wide, wrapped beyond that.
        gtk_label_set_wrap(label.object.opaque, 1)
        gtk_label_set_natural_wrap_mode(label.object.opaque, GTK_NATURAL_WRAP_NONE)
        gtk_label_set_max_width_chars(label.object.opaque, 50)
        gtk_label_set_xalign(label.object.opaque, 0)
        gtk_widget_set_valign(label.widget, GTK_ALIGN_CENTER)
        undoButton = Button(gtk_button_new_with_label(""))
        gtk_widget_set_valign(undoButton.widget, GTK_ALIGN_CENTER)
        closeButton = Button(gtk_button_new_from_icon_name("window-close-symbolic"))
        gtk_button_set_has_frame(closeButton.object.as(), 0)
        gtk_widget_set_valign(closeButton.widget, GTK_ALIGN_CENTER)
        closeButton.setAccessibleName(tr("Close notice"))
        gtk_box_append(box.object.as(), label.widget)
        gtk_box_append(box.object.as(), undoButton.widget)
        gtk_box_append(box.object.as(), closeButton.widget)
        gtk_revealer_set_child(widget.object.as(), box.widget)
        // Hidden, not only folded: a folded revealer would still be in the accessibility tree.
        widget.isVisible = false
        // Hidden once it has slid away (at once without animations), so that nothing of it
        // stays in the accessibility tree.
        widget.connectNotify("child-revealed") { [weak widget] in
            guard let widget else { return }
            if gtk_revealer_get_reveal_child(widget.object.as()) == 0 && gtk_revealer_get_child_revealed(widget.object.as()) == 0 {
                widget.isVisible = false
            }
        }
        undoButton.connect("clicked") { [weak self] in self?.onUndo?() }
        closeButton.connect("clicked") { [weak self] in self?.onClose?() }
    }

    /// Shows `text`, with an Undo button labelled `undoLabel` when given; `nil` hides the bar.
    func show(_ text: String?, undoLabel: String?) {
        guard let text else {
            gtk_revealer_set_reveal_child(widget.object.as(), 0)
            return
        }
        label.text = text
        gtk_button_set_label(undoButton.object.as(), undoLabel ?? "")
        undoButton.isVisible = undoLabel != nil
        widget.isVisible = true
        gtk_revealer_set_reveal_child(widget.object.as(), 1)
    }

    /// The text shown, if the bar is shown and not on its way out (automation).
    var text: String? {
        guard widget.isVisible, gtk_revealer_get_reveal_child(widget.object.as()) != 0 else { return nil }
        return label.text
    }

    /// The Undo button's label, if it is shown (automation).
    var undoLabel: String? {
        guard text != nil, undoButton.isVisible else { return nil }
        return gtk_button_get_label(undoButton.object.as()).map { String(cString: $0) }
    }
}
