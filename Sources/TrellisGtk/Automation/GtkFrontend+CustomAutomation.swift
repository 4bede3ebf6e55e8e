import CGtk
import TrellisCore

/// The automation of custom content (see `GtkFrontend+Automation.swift`): in `dump` of a page
/// showing custom content, `custom` holds its text `lines`, and, when a renderer built a
/// widget, the widget's GType name (`widget`), whether it has an accessible label
/// (`accessibleLabel`) and its `bounds` in the window (`[x, y, width, height]`, pixels: where
/// to look in a screenshot).
extension GtkFrontend {
    /// Adds `custom` to a `dump` of a custom page.
    func customSnapshot(into result: inout JSONValue) {
        guard let view = currentView, let custom = view.custom else { return }
        var entry: JSONValue = ["lines": .array(custom.textLines.map { .string($0) })]
        if let widget = view.customWidget {
            entry["widget"] = .string(widget.typeName)
            entry["accessibleLabel"] = .bool(hasAccessibleLabel(widget.object))
            var bounds = graphene_rect_t()
            // Safe: both widgets are alive (the view holds the custom one, the window the other).
            if gtk_widget_compute_bounds(widget.widget, window.window.object.as(), &bounds) != 0 {
                entry["bounds"] = .array([bounds.origin.x, bounds.origin.y, bounds.size.width, bounds.size.height]
                    .map { .number(Double($0)) })
            }
        }
        result["custom"] = entry
    }
}
