import CGtk

/// A new widget of GType `type` whose accessible role is `role`, floating as `gtk_*_new`
/// returns it. A widget's role can only be given at construction (`accessible-role` is a
/// construct-only property), and `g_object_new` is variadic, which Swift does not import: the
/// widget is made with `g_object_new_with_properties` and one `GValue`.
@MainActor
func makeWidget(_ type: GType, accessibleRole role: GtkAccessibleRole) -> GObjectPointer {
    var value = GValue()
    g_value_init(&value, gtk_accessible_role_get_type())
    g_value_set_enum(&value, gint(role.rawValue))
    defer { g_value_unset(&value) }
    // Safe: `names` and `value` outlive the call, which copies what it keeps; the result is a
    // new (floating) instance of `type`, never NULL for a widget type.
    let widget = "accessible-role".withCString { name -> UnsafeMutablePointer<GObject>? in
        var names: [UnsafePointer<CChar>?] = [name]
        return g_object_new_with_properties(type, 1, &names, &value)
    }
    return GObjectPointer(widget!)
}

/// A new label that assistive technologies treat as an alert (`GTK_ACCESSIBLE_ROLE_ALERT`,
/// which GTK's AT-SPI bridge exposes with role "alert", named by its text, and only while it is
/// shown): what screen readers such as Orca announce when it appears, instead of one more label
/// on the page. Used for the page's message (validation errors, failures) and the window's
/// notices.
@MainActor
func makeAlertLabel() -> GObjectPointer {
    makeWidget(gtk_label_get_type(), accessibleRole: GTK_ACCESSIBLE_ROLE_ALERT)
}
