import CGtk

/// The type check behind every typed GObject wrapper (`G_TYPE_CHECK_INSTANCE_TYPE`, a macro
/// Swift cannot see, is `g_type_check_instance_is_a`).
@MainActor
enum GObjectTypeCheck {
    /// What a failed debug-build check does with its message: a failed assertion (the
    /// debugger stops at the wrong cast). Tests replace it to read the message.
    static var reportFailure: (String) -> Void = { message in assertionFailure(message) }

    /// Whether `object` is an instance of `type` or of a subtype.
    static func isInstance(_ object: GObjectPointer, of type: GType) -> Bool {
        // Safe: callers pass a live GObject, whose memory starts with its GTypeInstance.
        g_type_check_instance_is_a(object.as(), type) != 0
    }

    /// In debug builds, reports (``reportFailure``) when `object` is not a `type`, naming
    /// both types and the wrapper; release builds check nothing.
    static func check(_ object: GObjectPointer, is type: GType, wrapper: String) {
        #if DEBUG
        guard !isInstance(object, of: type) else { return }
        // Safe: as in isInstance; g_type_name returns a static string GLib owns.
        let actual = String(cString: g_type_name_from_instance(object.as()))
        let expected = g_type_name(type).map { String(cString: $0) } ?? "GType \(type)"
        reportFailure("cannot wrap a \(actual) as \(wrapper): it is not a \(expected)")
        #endif
    }
}
