import CGtk

/// GTK's C API takes typed pointers (`GtkWidget *`, `GtkWindow *`, …) and some opaque ones.
/// C casts like `GTK_WINDOW (w)` are macros Swift cannot see, so inside TrellisGtk a GObject
/// is an untyped pointer retyped at the call: `gtk_window_set_title(window.as(), "…")`.
/// None of this is public: app authors hold GTK objects through the typed, reference-owning
/// wrappers (``GObjectReference``, ``Widget``).
///
/// Why the retyping is safe: each pointer comes from the GTK constructor of the type it is
/// retyped to (or a subtype: a `GtkLabel` is a `GtkWidget`, whose struct it begins with), so
/// `assumingMemoryBound` names the memory's real type; the object is alive because the
/// wrapper, the window's widget tree or the stack holding it owns a reference. The typed
/// wrappers check the GType in debug builds (`GObjectTypeCheck`).
typealias GObjectPointer = UnsafeMutableRawPointer

extension UnsafeMutableRawPointer {
    /// The pointer retyped for a C parameter whose type Swift infers (`GtkWidget *`, …).
    @inline(__always) func `as`<T>() -> UnsafeMutablePointer<T> { assumingMemoryBound(to: T.self) }

    /// The pointer retyped for a C parameter of a type whose struct is private (Swift sees an
    /// `OpaquePointer`: GtkListView, GtkLabel, TrellisListModel, …).
    @inline(__always) func `as`() -> OpaquePointer { OpaquePointer(self) }

    /// The pointer as an `OpaquePointer`, for GTK types whose struct is private (GtkListView, …).
    @inline(__always) var opaque: OpaquePointer { OpaquePointer(self) }
}

/// Converts a typed or opaque GTK pointer into a `GObjectPointer`.
@inline(__always) func gobj<T>(_ pointer: UnsafeMutablePointer<T>) -> GObjectPointer { GObjectPointer(pointer) }
@inline(__always) func gobj(_ pointer: OpaquePointer) -> GObjectPointer { GObjectPointer(pointer) }

/// The strings of a `NULL`-terminated array of C strings GTK returned with its ownership
/// (`transfer full`), which is freed: `strings(takingStrv: gtk_application_get_accels_for_action(…))`.
func strings(takingStrv list: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?) -> [String] {
    guard let list else { return [] }
    defer { g_strfreev(list) }
    var result: [String] = []
    var index = 0
    while let item = list[index] {
        result.append(String(cString: item))
        index += 1
    }
    return result
}

/// Adds a CSS class to a widget.
@MainActor func addStyleClass(_ widget: GObjectPointer, _ name: String) {
    gtk_widget_add_css_class(widget.as(), name)
}
