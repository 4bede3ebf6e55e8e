import CGtk

/// A GTK widget Swift owns a reference to (a ``GObjectReference`` of a `GtkWidget`): what a
/// ``GtkContentRenderer`` builds for a page's custom content.
///
/// ```swift
/// let label = Label("Nothing to draw yet")
/// label.setAccessibleLabel("Notes per day")
/// label.expand(horizontally: true, vertically: true)
/// ```
@MainActor
public class Widget: GObjectReference {
    override class var instanceType: GType { gtk_widget_get_type() }

    /// The widget as GTK's C API takes it.
    var widget: UnsafeMutablePointer<GtkWidget> {
        // Safe: the wrapper's type was checked to be a GtkWidget (debug builds) and it holds a reference.
        object.as()
    }

    /// Sets the name a screen reader says for the widget (`GTK_ACCESSIBLE_PROPERTY_LABEL`).
    public func setAccessibleLabel(_ label: String) {
        TrellisGtk.setAccessibleLabel(object, label)
    }

    /// Sets what a screen reader reads after the widget's name (`GTK_ACCESSIBLE_PROPERTY_DESCRIPTION`).
    public func setAccessibleDescription(_ text: String) {
        TrellisGtk.setAccessibleDescription(object, text)
    }

    /// The text shown when the pointer rests on the widget (`nil`: none).
    public func setTooltip(_ text: String?) {
        gtk_widget_set_tooltip_text(widget, text)
    }

    /// Whether the widget takes the space its container has to spare, in each direction.
    public func expand(horizontally: Bool, vertically: Bool) {
        gtk_widget_set_hexpand(widget, horizontally ? 1 : 0)
        gtk_widget_set_vexpand(widget, vertically ? 1 : 0)
    }

    /// The smallest size the widget asks for, in pixels (-1: its natural size in that direction).
    public func setMinimumSize(width: Int, height: Int) {
        gtk_widget_set_size_request(widget, Int32(width), Int32(height))
    }

    /// Adds a CSS class (`"dim-label"`, `"card"`, …).
    public func addStyleClass(_ name: String) {
        gtk_widget_add_css_class(widget, name)
    }

    /// Whether the widget is shown (`gtk_widget_get_visible`, `gtk_widget_set_visible`).
    var isVisible: Bool {
        get { gtk_widget_get_visible(widget) != 0 }
        set { gtk_widget_set_visible(widget, newValue ? 1 : 0) }
    }

    /// Whether the widget is its window's focus widget (whether or not the window is active).
    var isFocus: Bool {
        guard let root = gtk_widget_get_root(widget) else { return false }
        return gtk_root_get_focus(root) == widget
    }

    /// Whether the window's focus widget is inside this widget (a descendant, not itself).
    var focusIsInside: Bool {
        guard let root = gtk_widget_get_root(widget), let focus = gtk_root_get_focus(root) else { return false }
        return focus != widget && gtk_widget_is_ancestor(focus, widget) != 0
    }

    /// Asks GTK to draw the widget again at the next frame.
    public func queueDraw() {
        gtk_widget_queue_draw(widget)
    }

    /// The widget's width at the last layout, in pixels (0 before it is shown).
    public var width: Int { Int(gtk_widget_get_width(widget)) }

    /// The widget's height at the last layout, in pixels (0 before it is shown).
    public var height: Int { Int(gtk_widget_get_height(widget)) }

    /// The colour the theme gives the widget's text (dark on a light theme, light on a dark one).
    public var foregroundColor: Color {
        var rgba = GdkRGBA()
        // GTK 4.8 has no gtk_widget_get_color (4.10); the style context's colour is the same.
        gtk_style_context_get_color(gtk_widget_get_style_context(widget), &rgba)
        return Color(red: Double(rgba.red), green: Double(rgba.green), blue: Double(rgba.blue), alpha: Double(rgba.alpha))
    }
}
