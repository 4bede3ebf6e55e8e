import CGtk

/// Tells a screen reader of a change away from the keyboard focus — a notice sliding over the
/// page ("Deleted “Groceries”") — as GTK 4.14's `gtk_accessible_announce` would. GTK 4.8 has
/// no announcement, and its AT-SPI bridge never reports an alert as showing, so Orca spoke
/// nothing. What Orca 43 does speak is a new description of the widget that has the focus
/// (`object:property-change:accessible-description` on its locus of focus): the announcement
/// becomes that widget's description until the focus leaves it, when its own description (or
/// none) comes back — unspoken, since the widget no longer has the focus.
///
/// The announcement waits for the next frame (the page that caused it may still be moving the
/// focus: a deleted note's editor goes, the list takes the focus), for a focused widget, and
/// for the window to have placed the focus on the page now on top when it is doing so
/// (``placementBegan()``): whichever comes first of that frame and that placement, the other
/// may come after it, and an announcement made on a widget about to lose the focus is never
/// spoken (Orca read only the list's name, "Notes", once in a full test run).
@MainActor
final class Announcer {
    private let window: ApplicationWindow
    /// The text waiting for a focused widget.
    private var pending: String?
    /// The widget carrying an announcement now (a reference of our own), and the announcement.
    private var carrier: Widget?
    private var carried: String?
    /// Focus placements the window began and has not ended: the focus is not settled yet.
    private var placements = 0

    init(window: ApplicationWindow) {
        self.window = window
    }

    /// Keeps `text` for ``deliver()``, which the window calls after its next frame.
    func prepare(_ text: String) {
        pending = text
    }

    /// The window is about to place the focus on a page (after GTK's own move): announcements
    /// wait for ``placementEnded()``.
    func placementBegan() {
        placements += 1
    }

    /// The placement ``placementBegan()`` announced is done (or given up): a waiting
    /// announcement goes to the widget that has the focus now, if no other placement is under way.
    func placementEnded() {
        placements -= 1
        deliver()
    }

    /// Announces the text kept, on the widget that has the focus now (or the next one to),
    /// unless a focus placement is under way (it delivers when it ends).
    func deliver() {
        guard placements == 0, let text = pending, let focus = gtk_root_get_focus(window.object.opaque) else { return }
        pending = nil
        // Told already, and the focus has not moved since: once is enough.
        if text == carried, carrier?.widget == focus { return }
        restoreCarrier()
        let widget = Widget(retaining: GObjectPointer(focus))
        setAccessibleDescription(widget.object, text, remember: false)
        carrier = widget
        carried = text
    }

    /// Called when the window's focus widget changed. An announcement moves on with the focus
    /// when the widget carrying it left the screen (its row was removed, its page went): the
    /// person did not move the focus, and the text may not have been spoken before the focus
    /// moved (a deleted note's row had it for a frame before the list heard of the delete).
    /// When the person moves the focus, the announcement stays behind, as spoken.
    func focusMoved() {
        let focus = gtk_root_get_focus(window.object.opaque)
        if let carrier, focus != carrier.widget {
            let text = carried
            restoreCarrier()
            if focus != nil, pending == nil, gtk_widget_get_mapped(carrier.widget) == 0 { pending = text }
        }
        if pending != nil { deliver() }
    }

    /// Gives the widget that carried an announcement its own description back.
    private func restoreCarrier() {
        guard let carrier else { return }
        self.carrier = nil
        carried = nil
        restoreAccessibleDescription(carrier.object)
    }
}
