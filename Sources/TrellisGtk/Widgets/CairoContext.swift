import CGtk

/// The cairo context a ``DrawingArea`` draws with, valid only during its draw function
/// (it cannot be copied out of it). Coordinates are pixels from the top left corner.
///
/// ```swift
/// area.setDrawFunction { cairo, width, height in
///     cairo.setColor(.accentBlue)
///     cairo.rectangle(x: 0, y: 0, width: Double(width) / 2, height: Double(height))
///     cairo.fill()
/// }
/// ```
@MainActor
public struct CairoContext: ~Copyable {
    /// The `cairo_t *`, owned by GTK for the duration of one draw.
    private let context: OpaquePointer

    /// Wraps the context GTK passes to a draw function; text is written in the sans-serif
    /// face the interface uses (cairo's own default is serif).
    init(_ context: OpaquePointer) {
        self.context = context
        cairo_select_font_face(context, "sans-serif", CAIRO_FONT_SLANT_NORMAL, CAIRO_FONT_WEIGHT_NORMAL)
    }

    /// The colour of what is filled, stroked or written next.
    public func setColor(_ color: Color) {
        cairo_set_source_rgba(context, color.red, color.green, color.blue, color.alpha)
    }

    /// Adds a rectangle to the current path.
    public func rectangle(x: Double, y: Double, width: Double, height: Double) {
        cairo_rectangle(context, x, y, width, height)
    }

    /// Starts a new piece of path at a point.
    public func move(toX x: Double, y: Double) { cairo_move_to(context, x, y) }

    /// Adds a straight line from the current point.
    public func line(toX x: Double, y: Double) { cairo_line_to(context, x, y) }

    /// The width of lines drawn by ``stroke()``.
    public func setLineWidth(_ width: Double) { cairo_set_line_width(context, width) }

    /// Fills the current path, then forgets it.
    public func fill() { cairo_fill(context) }

    /// Draws the current path's outline, then forgets it.
    public func stroke() { cairo_stroke(context) }

    /// The size of text written next, in pixels.
    public func setFontSize(_ size: Double) { cairo_set_font_size(context, size) }

    /// The width `text` takes at the current font size, in pixels.
    public func textWidth(_ text: String) -> Double {
        var extents = cairo_text_extents_t()
        cairo_text_extents(context, text, &extents)
        return extents.x_advance
    }

    /// Writes `text` with its baseline starting at (`x`, `y`).
    public func showText(_ text: String, x: Double, y: Double) {
        cairo_move_to(context, x, y)
        cairo_show_text(context, text)
    }
}
