import CGtk

/// Names an icon-only widget for people: its tooltip (what the pointer shows) and its
/// accessible label (what a screen reader says), from one translated string.
@MainActor
func setAccessibleName(_ widget: GObjectPointer, _ name: String) {
    gtk_widget_set_tooltip_text(widget.as(), name)
    setAccessibleLabel(widget, name)
}

/// Whether `widget` has an accessible label set (read through GTK's accessibility testing API).
@MainActor
func hasAccessibleLabel(_ widget: GObjectPointer) -> Bool {
    gtk_test_accessible_has_property(widget.as(), GTK_ACCESSIBLE_PROPERTY_LABEL) != 0
}
