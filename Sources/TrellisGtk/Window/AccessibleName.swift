import CGtk

/// Names an icon-only widget for people: its tooltip (what the pointer shows) and its
/// accessible label (what a screen reader says), from one translated string.
@MainActor
func setAccessibleName(_ widget: GObjectPointer, _ name: String) {
    gtk_widget_set_tooltip_text(widget.as(), name)
    setAccessibleLabel(widget, name)
    // No description: GTK 4.8 would describe the widget by its tooltip, and a screen reader
    // would say the name twice.
    setAccessibleDescription(widget, "")
    hideIcons(in: widget.as())
}

/// Hides the icons inside `widget` from assistive technologies: an icon-only button is read
/// by its own name, not as "GtkImage Back".
@MainActor
func hideIcons(in widget: UnsafeMutablePointer<GtkWidget>) {
    var child = gtk_widget_get_first_child(widget)
    while let current = child {
        // Safe: every widget starts with its GTypeInstance.
        if g_type_check_instance_is_a(UnsafeMutableRawPointer(current).assumingMemoryBound(to: GTypeInstance.self),
                                      gtk_image_get_type()) != 0 {
            setAccessibleHidden(GObjectPointer(current), true)
        } else {
            hideIcons(in: current)
        }
        child = gtk_widget_get_next_sibling(current)
    }
}

/// Whether `widget` has an accessible label set (read through GTK's accessibility testing API).
@MainActor
func hasAccessibleLabel(_ widget: GObjectPointer) -> Bool {
    gtk_test_accessible_has_property(widget.as(), GTK_ACCESSIBLE_PROPERTY_LABEL) != 0
}

/// Hides `widget` and everything inside it from assistive technologies, or shows it again
/// (`GTK_ACCESSIBLE_STATE_HIDDEN`): for what is on screen to GTK but not to people, such as the
/// pages a navigation stack keeps under the one on top.
@MainActor
func setAccessibleHidden(_ widget: GObjectPointer, _ hidden: Bool) {
    var value = GValue()
    g_value_init(&value, GType(5 << 2))  // G_TYPE_BOOLEAN = G_TYPE_MAKE_FUNDAMENTAL (5), a macro Swift cannot see
    g_value_set_boolean(&value, hidden ? 1 : 0)
    var state = GTK_ACCESSIBLE_STATE_HIDDEN
    gtk_accessible_update_state_value(widget.as(), 1, &state, &value)
    g_value_unset(&value)
}

extension Widget {
    /// Names an icon-only widget: its tooltip and its accessible label (``setAccessibleName(_:_:)``).
    func setAccessibleName(_ name: String) {
        TrellisGtk.setAccessibleName(object, name)
    }

    /// Hides the widget from assistive technologies, or shows it again (``setAccessibleHidden(_:_:)``).
    func setAccessibleHidden(_ hidden: Bool) {
        TrellisGtk.setAccessibleHidden(object, hidden)
    }
}
