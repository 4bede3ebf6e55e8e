import CGtk

/// GTK's C API takes typed pointers (`GtkWidget *`, `GtkWindow *`, …) and some opaque ones.
/// C casts like `GTK_WINDOW (w)` are macros Swift cannot see, so Trellis keeps every GObject
/// as an untyped pointer and retypes it at the call: `gtk_window_set_title(window.as(), "…")`.
public typealias GObjectPointer = UnsafeMutableRawPointer

extension UnsafeMutableRawPointer {
    /// The pointer retyped for a C parameter whose type Swift infers (`GtkWidget *`, …).
    @inline(__always) public func `as`<T>() -> UnsafeMutablePointer<T> { assumingMemoryBound(to: T.self) }

    /// The pointer retyped for a C parameter of a type whose struct is private (Swift sees an
    /// `OpaquePointer`: GtkListView, GtkLabel, TrellisListModel, …).
    @inline(__always) public func `as`() -> OpaquePointer { OpaquePointer(self) }

    /// The pointer as an `OpaquePointer`, for GTK types whose struct is private (GtkListView, …).
    @inline(__always) public var opaque: OpaquePointer { OpaquePointer(self) }
}

/// Converts a typed or opaque GTK pointer into a `GObjectPointer`.
@inline(__always) public func gobj<T>(_ pointer: UnsafeMutablePointer<T>) -> GObjectPointer { GObjectPointer(pointer) }
@inline(__always) public func gobj(_ pointer: OpaquePointer) -> GObjectPointer { GObjectPointer(pointer) }

/// Adds a CSS class to a widget.
@MainActor func addStyleClass(_ widget: GObjectPointer, _ name: String) {
    gtk_widget_add_css_class(widget.as(), name)
}
