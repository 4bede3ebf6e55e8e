import CGtk
import CTrellisGtk
import TrellisCore

/// The automation of the window's text as drawn (see `GtkFrontend+Automation.swift`):
///
/// | command | effect |
/// | --- | --- |
/// | `text-regions` | after the next frame: every label on screen (a list row's too), its text and where it is drawn (`x`, `y`, `width`, `height` in window coordinates, cut to what its scrolled windows show) |
///
/// With a `screenshot` of the same frame, a test reads the colours of each text and its
/// background (the contrast tests).
extension GtkFrontend {
    /// Every label of the window on screen now, with the part of it that is visible.
    func textRegions() -> JSONValue {
        var regions: [JSONValue] = []
        collectLabels(in: window.window.widget, into: &regions)
        return ["ok": true, "regions": .array(regions)]
    }

    private func collectLabels(in widget: UnsafeMutablePointer<GtkWidget>, into regions: inout [JSONValue]) {
        guard gtk_widget_get_mapped(widget) != 0, gtk_widget_get_child_visible(widget) != 0, gtk_widget_get_opacity(widget) > 0 else { return }
        // Safe: every widget starts with its GTypeInstance.
        let instance = UnsafeMutableRawPointer(widget).assumingMemoryBound(to: GTypeInstance.self)
        // A GtkLabel, or a list row's label (trellis-row-label.h).
        let text = g_type_check_instance_is_a(instance, gtk_label_get_type()) != 0
            ? gtk_label_get_text(OpaquePointer(widget)).map { String(cString: $0) }
            : g_type_check_instance_is_a(instance, trellis_row_label_get_type()) != 0
            ? trellis_row_label_get_text(OpaquePointer(widget)).map { String(cString: $0) } : nil
        if let text, !text.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty, let box = visibleBounds(of: widget) {
            regions.append(["text": .string(text), "x": .number(Double(box.origin.x)), "y": .number(Double(box.origin.y)),
                            "width": .number(Double(box.size.width)), "height": .number(Double(box.size.height))])
        }
        var child = gtk_widget_get_first_child(widget)
        while let current = child {
            collectLabels(in: current, into: &regions)
            child = gtk_widget_get_next_sibling(current)
        }
    }

    /// Where `widget` is drawn in the window, cut to the scrolled windows around it; nil when
    /// nothing of it shows.
    private func visibleBounds(of widget: UnsafeMutablePointer<GtkWidget>) -> graphene_rect_t? {
        var bounds = graphene_rect_t()
        guard gtk_widget_compute_bounds(widget, window.window.widget, &bounds) != 0 else { return nil }
        var ancestor = gtk_widget_get_parent(widget)
        while let current = ancestor {
            // Safe: as above.
            let instance = UnsafeMutableRawPointer(current).assumingMemoryBound(to: GTypeInstance.self)
            if g_type_check_instance_is_a(instance, gtk_scrolled_window_get_type()) != 0 {
                var shown = graphene_rect_t()
                guard gtk_widget_compute_bounds(current, window.window.widget, &shown) != 0 else { return nil }
                var cut = graphene_rect_t()
                guard graphene_rect_intersection(&bounds, &shown, &cut) else { return nil }
                bounds = cut
            }
            ancestor = gtk_widget_get_parent(current)
        }
        return bounds.size.width >= 1 && bounds.size.height >= 1 ? bounds : nil
    }
}
