import CGtk

/// A `GtkDrawingArea`: a widget that draws itself with cairo through a Swift function,
/// called whenever GTK paints it (after ``Widget/queueDraw()``, a resize, a theme change).
///
/// ```swift
/// let area = DrawingArea()
/// area.setContentSize(width: 320, height: 200)
/// area.setAccessibleLabel("Notes per day")
/// area.setDrawFunction { cairo, width, height in
///     cairo.setColor(.accentBlue)
///     cairo.rectangle(x: 10, y: 10, width: Double(width) - 20, height: Double(height) - 20)
///     cairo.fill()
/// }
/// ```
@MainActor
public final class DrawingArea: Widget {
    override class var instanceType: GType { gtk_drawing_area_get_type() }

    /// What GTK calls back to draw: the Swift function, retained by GTK until it is replaced
    /// or the widget is finalized.
    private final class DrawBox {
        let draw: @MainActor (borrowing CairoContext, Int, Int) -> Void
        init(_ draw: @escaping @MainActor (borrowing CairoContext, Int, Int) -> Void) { self.draw = draw }
    }

    /// A new, empty drawing area, which assistive technologies present as an image (a chart,
    /// a map: GTK's `GTK_ACCESSIBLE_ROLE_IMG`; a plain GtkDrawingArea is left out of the
    /// accessibility tree). Name it with ``Widget/setAccessibleLabel(_:)``.
    public convenience init() {
        // The role is a construct-only property (see makeWidget(_:accessibleRole:)).
        let area = makeWidget(gtk_drawing_area_get_type(), accessibleRole: GTK_ACCESSIBLE_ROLE_IMG)
        // Safe: a new (floating) GtkDrawingArea, which init(retaining:) sinks.
        self.init(retaining: area)
    }

    private var area: UnsafeMutablePointer<GtkDrawingArea> {
        // Safe: a GtkDrawingArea (checked in debug builds), alive while this wrapper holds it.
        object.as()
    }

    /// The size the area asks for, in pixels.
    public func setContentSize(width: Int, height: Int) {
        gtk_drawing_area_set_content_width(area, Int32(width))
        gtk_drawing_area_set_content_height(area, Int32(height))
    }

    /// Sets the function that draws the area: it gets the cairo context and the area's width
    /// and height in pixels. Replaces the previous one.
    public func setDrawFunction(_ draw: @escaping @MainActor (borrowing CairoContext, _ width: Int, _ height: Int) -> Void) {
        let thunk: GtkDrawingAreaDrawFunc = { _, cairo, width, height, data in
            // Safe: `data` is the DrawBox retained below, released only by `release`, and GTK
            // draws on its own thread, the main actor; `cairo` is valid for this call.
            guard let cairo, let data else { return }
            let box = Unmanaged<DrawBox>.fromOpaque(data).takeUnretainedValue()
            MainActor.assumeIsolated { box.draw(CairoContext(cairo), Int(width), Int(height)) }
        }
        let release: GDestroyNotify = { data in
            // Safe: GTK calls this once, when the function is replaced or the area finalized.
            guard let data else { return }
            Unmanaged<DrawBox>.fromOpaque(data).release()
        }
        gtk_drawing_area_set_draw_func(area, thunk, Unmanaged.passRetained(DrawBox(draw)).toOpaque(), release)
    }
}
