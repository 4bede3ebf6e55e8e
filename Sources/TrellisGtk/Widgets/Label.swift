import CGtk

/// A `GtkLabel`: a line or paragraph of text.
///
/// ```swift
/// let label = Label("No notes yet")
/// label.text = "3 notes"
/// ```
@MainActor
public final class Label: Widget {
    override class var instanceType: GType { gtk_label_get_type() }

    /// A new label showing `text`, wrapped at word boundaries when it does not fit.
    public convenience init(_ text: String = "") {
        // Safe: gtk_label_new returns a new (floating) GtkLabel, which init(retaining:) sinks.
        self.init(retaining: GObjectPointer(gtk_label_new(text))!)
        gtk_label_set_wrap(label, 1)
    }

    private var label: OpaquePointer {
        // Safe: a GtkLabel (checked in debug builds), alive while this wrapper holds it.
        object.opaque
    }

    /// The text shown.
    public var text: String {
        get { String(cString: gtk_label_get_text(label)) }
        set { gtk_label_set_text(label, newValue) }
    }
}
