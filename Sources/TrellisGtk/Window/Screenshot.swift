import CGtk

/// Renders a widget (usually the whole window) to a PNG file with the window's own GSK
/// renderer, so screenshots need no X tools and show exactly what GTK painted.
@MainActor
enum Screenshot {
    enum Failure: Error, CustomStringConvertible {
        case notRealized
        case renderFailed
        case writeFailed(path: String)

        var description: String {
            switch self {
            case .notRealized: return "screenshot: the window is not shown yet"
            case .renderFailed: return "screenshot: the renderer produced no image"
            case .writeFailed(let path): return "screenshot: could not write \(path)"
            }
        }
    }

    /// Saves what `widget` shows now to `path` as PNG.
    static func save(_ widget: GObjectPointer, to path: String) throws(Failure) {
        guard let native = gtk_widget_get_native(widget.as()),
              let renderer = gtk_native_get_renderer(native) else { throw .notRealized }
        let width = gtk_widget_get_width(widget.as())
        let height = gtk_widget_get_height(widget.as())
        guard width > 0, height > 0 else { throw .notRealized }
        let paintable = gtk_widget_paintable_new(widget.as())!
        defer { g_object_unref(GObjectPointer(paintable)) }
        let snapshot = gtk_snapshot_new()!
        gdk_paintable_snapshot(paintable, snapshot, Double(width), Double(height))
        guard let node = gtk_snapshot_free_to_node(snapshot) else { throw .renderFailed }
        defer { gsk_render_node_unref(node) }
        guard let texture = gsk_renderer_render_texture(renderer, node, nil) else { throw .renderFailed }
        defer { g_object_unref(GObjectPointer(texture)) }
        guard gdk_texture_save_to_png(texture, path) != 0 else { throw .writeFailed(path: path) }
    }
}
