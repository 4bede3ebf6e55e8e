import CGtk

/// Reads and writes boolean properties of `GtkSettings` (through `GValue`: the variadic
/// `g_object_get`/`g_object_set` are not callable from Swift).
@MainActor
enum GtkSettingsProperty {
    /// `G_TYPE_BOOLEAN`, `G_TYPE_MAKE_FUNDAMENTAL (5)`: a macro Swift cannot see.
    static let booleanType = GType(5 << 2)

    static func bool(_ object: GObjectPointer, _ name: String) -> Bool {
        var value = GValue()
        g_value_init(&value, booleanType)
        defer { g_value_unset(&value) }
        g_object_get_property(object.as(), name, &value)
        return g_value_get_boolean(&value) != 0
    }

    static func setBool(_ object: GObjectPointer, _ name: String, _ flag: Bool) {
        var value = GValue()
        g_value_init(&value, booleanType)
        defer { g_value_unset(&value) }
        g_value_set_boolean(&value, flag ? 1 : 0)
        g_object_set_property(object.as(), name, &value)
    }
}
