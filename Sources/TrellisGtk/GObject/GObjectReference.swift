import CGtk

/// A GObject that Swift owns a reference to: wrapping takes one (`g_object_ref_sink`, which
/// also takes over the floating reference of a widget just created), and the wrapper gives it
/// back when it goes (`g_object_unref`). The object lives at least as long as the wrapper; a
/// container it was added to may keep it longer.
///
/// Each wrapper class names the GType its objects are (``Widget`` a `GtkWidget`,
/// ``DrawingArea`` a `GtkDrawingArea`); debug builds check it when a wrapper is made, so a
/// wrong cast stops at the cast with both type names instead of crashing later in C.
///
/// ```swift
/// let area = DrawingArea()                  // owns the new GtkDrawingArea
/// let widget: Widget = area
/// let back = widget.cast(to: DrawingArea.self)   // checked: nil for another type
/// ```
@MainActor
public class GObjectReference {
    /// The object. Valid while this wrapper lives: the wrapper holds a reference to it.
    let object: GObjectPointer

    /// The GType every object of this wrapper class is (an instance of, or of a subtype).
    class var instanceType: GType { g_object_get_type() }

    /// Wraps `object`, taking a reference (or the floating one) that `deinit` gives back.
    /// `object` must be a live GObject; debug builds check that it is an ``instanceType``.
    required init(retaining object: GObjectPointer) {
        GObjectTypeCheck.check(object, is: Self.instanceType, wrapper: "\(Self.self)")
        // Safe: `object` is a live GObject (the caller has one, checked above in debug builds);
        // ref_sink takes one reference that this wrapper owns until deinit.
        g_object_ref_sink(object)
        self.object = object
    }

    /// Wraps an object the caller has just created and owns (a GTK constructor's result, or
    /// `g_menu_new ()`'s): the wrapper takes over the caller's reference, floating or not.
    convenience init(taking new: GObjectPointer) {
        // Safe: `new` is a live GObject the caller owns one reference to.
        let floating = g_object_is_floating(new.as()) != 0
        self.init(retaining: new)
        // retaining: sank a floating reference (now the wrapper's) or added one: give the
        // caller's back in that case.
        if !floating { g_object_unref(new) }
    }

    isolated deinit {
        // Safe: the reference taken in init is still owned by this wrapper; GTK objects are
        // released on the GTK thread, which is the main actor.
        g_object_unref(object)
    }

    /// This object as a `Target` (another wrapper holding its own reference), or `nil` when it
    /// is not one: `g_type_check_instance_is_a`, in every build.
    public func cast<Target: GObjectReference>(to type: Target.Type) -> Target? {
        guard GObjectTypeCheck.isInstance(object, of: Target.instanceType) else { return nil }
        return Target(retaining: object)
    }

    /// The name of the object's type, such as `"GtkDrawingArea"`.
    public var typeName: String {
        // Safe: `object` is a live GTypeInstance while this wrapper holds its reference.
        String(cString: g_type_name_from_instance(object.as()))
    }

    /// Whether the two wrappers hold the same object.
    public func isSameObject(as other: GObjectReference) -> Bool { object == other.object }
}
