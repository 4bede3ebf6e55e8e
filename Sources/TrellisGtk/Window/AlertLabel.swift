import CGtk

/// A new label that assistive technologies treat as an alert (`GTK_ACCESSIBLE_ROLE_ALERT`,
/// which GTK's AT-SPI bridge exposes with role "alert", named by its text, and only while it is
/// shown): what screen readers such as Orca announce when it appears, instead of one more label
/// on the page. Used for the page's
/// message (validation errors, failures) and the window's notices.
///
/// A widget's accessible role can only be given at construction (`accessible-role` is a
/// construct-only property), and `g_object_new` is variadic, which Swift does not import: the
/// label is made with `g_object_new_with_properties` and one `GValue`.
@MainActor
func makeAlertLabel() -> GObjectPointer {
    var role = GValue()
    g_value_init(&role, gtk_accessible_role_get_type())
    g_value_set_enum(&role, gint(GTK_ACCESSIBLE_ROLE_ALERT.rawValue))
    defer { g_value_unset(&role) }
    // Safe: `names` and `role` outlive the call, which copies what it keeps; the result is a
    // new (floating) GtkLabel, as gtk_label_new returns.
    let label = "accessible-role".withCString { name -> UnsafeMutablePointer<GObject>? in
        var names: [UnsafePointer<CChar>?] = [name]
        return g_object_new_with_properties(gtk_label_get_type(), 1, &names, &role)
    }
    return GObjectPointer(label!)
}
