import CGtk
import TrellisCore

/// The window's in-app notification: a bar that slides down from under the header bar, over
/// the page, showing one notice ("Deleted “Groceries”") with its Undo button and a close
/// button. GTK 4.8 widgets only (a `GtkRevealer` styled `app-notification`, as GNOME's apps
/// drew these before libadwaita's toasts); the text is an alert for screen readers.
@MainActor
public final class NoticeBar {
    /// The revealer to lay over the page (top centre).
    let widget: GObjectPointer
    let label: GObjectPointer
    let undoButton: GObjectPointer
    let closeButton: GObjectPointer
    /// Called when Undo is pressed.
    var onUndo: (() -> Void)?
    /// Called when the close button is pressed.
    var onClose: (() -> Void)?

    init() {
        widget = GObjectPointer(gtk_revealer_new())!
        gtk_revealer_set_transition_type(widget.as(), GTK_REVEALER_TRANSITION_TYPE_SLIDE_DOWN)
        gtk_widget_set_halign(widget.as(), GTK_ALIGN_CENTER)
        gtk_widget_set_valign(widget.as(), GTK_ALIGN_START)
        let box = GObjectPointer(gtk_box_new(GTK_ORIENTATION_HORIZONTAL, 12))!
        addStyleClass(box, "app-notification")
        addStyleClass(box, "osd")
        label = makeAlertLabel()
        // One line while it fits (GTK 4 would otherwise wrap at every word), at most 50
        // characters wide, wrapped beyond that.
        gtk_label_set_wrap(label.as(), 1)
        gtk_label_set_natural_wrap_mode(label.as(), GTK_NATURAL_WRAP_NONE)
        gtk_label_set_max_width_chars(label.as(), 50)
        gtk_label_set_xalign(label.as(), 0)
        gtk_widget_set_valign(label.as(), GTK_ALIGN_CENTER)
        undoButton = GObjectPointer(gtk_button_new_with_label(""))!
        gtk_widget_set_valign(undoButton.as(), GTK_ALIGN_CENTER)
        closeButton = GObjectPointer(gtk_button_new_from_icon_name("window-close-symbolic"))!
        gtk_button_set_has_frame(closeButton.as(), 0)
        gtk_widget_set_valign(closeButton.as(), GTK_ALIGN_CENTER)
        setAccessibleName(closeButton, tr("Close notice"))
        gtk_box_append(box.as(), label.as())
        gtk_box_append(box.as(), undoButton.as())
        gtk_box_append(box.as(), closeButton.as())
        gtk_revealer_set_child(widget.as(), box.as())
        // Hidden, not only folded: a folded revealer would still be in the accessibility tree.
        gtk_widget_set_visible(widget.as(), 0)
        // Hidden once it has slid away (at once without animations), so that nothing of it
        // stays in the accessibility tree.
        Signals.connect(widget, "notify::child-revealed", object: { revealer, _ in
            if gtk_revealer_get_reveal_child(revealer.as()) == 0 && gtk_revealer_get_child_revealed(revealer.as()) == 0 {
                gtk_widget_set_visible(revealer.as(), 0)
            }
        })
        Signals.connect(undoButton, "clicked") { [weak self] _ in self?.onUndo?() }
        Signals.connect(closeButton, "clicked") { [weak self] _ in self?.onClose?() }
    }

    /// Shows `text`, with an Undo button labelled `undoLabel` when given; `nil` hides the bar.
    func show(_ text: String?, undoLabel: String?) {
        guard let text else {
            gtk_revealer_set_reveal_child(widget.as(), 0)
            return
        }
        gtk_label_set_text(label.as(), text)
        gtk_button_set_label(undoButton.as(), undoLabel ?? "")
        gtk_widget_set_visible(undoButton.as(), undoLabel == nil ? 0 : 1)
        gtk_widget_set_visible(widget.as(), 1)
        gtk_revealer_set_reveal_child(widget.as(), 1)
    }

    /// The text shown, if the bar is shown and not on its way out (automation).
    var text: String? {
        guard gtk_widget_get_visible(widget.as()) != 0, gtk_revealer_get_reveal_child(widget.as()) != 0 else { return nil }
        return String(cString: gtk_label_get_text(label.as()))
    }

    /// The Undo button's label, if it is shown (automation).
    var undoLabel: String? {
        guard text != nil, gtk_widget_get_visible(undoButton.as()) != 0 else { return nil }
        return gtk_button_get_label(undoButton.as()).map { String(cString: $0) }
    }
}
