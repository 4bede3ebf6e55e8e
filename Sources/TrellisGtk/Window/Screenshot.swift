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

    /// What a widget showed in a painted frame: its render node, taken from the widget when the
    /// frame was painted, and the renderer that painted it. Taken then, in the frame clock's
    /// `after-paint`, because GTK drops a widget's render node as soon as anything asks for a
    /// redraw, and a plugin's status line or a theme change may ask before a later main-loop
    /// turn: the picture would then be empty.
    final class Frame {
        /// A `GdkPaintable` drawing the render node (GTK's `GtkRenderNodePaintable`).
        fileprivate let image: GObjectReference
        fileprivate let renderer: GObjectReference
        fileprivate let width: Double
        fileprivate let height: Double

        fileprivate init(image: GObjectReference, renderer: GObjectReference, width: Double, height: Double) {
            self.image = image
            self.renderer = renderer
            self.width = width
            self.height = height
        }
    }

    /// What `widget` shows now, to save later (``save(_:to:)``); call it in `after-paint`.
    static func capture(_ widget: GObjectPointer) throws(Failure) -> Frame {
        guard let native = gtk_widget_get_native(widget.as()),
              let renderer = gtk_native_get_renderer(native) else { throw .notRealized }
        let width = gtk_widget_get_width(widget.as())
        let height = gtk_widget_get_height(widget.as())
        guard width > 0, height > 0 else { throw .notRealized }
        // A widget paintable made now holds the widget's render node of the frame just painted
        // (its current image); dropping the paintable detaches it from the widget.
        let paintable = GObjectReference(taking: GObjectPointer(gtk_widget_paintable_new(widget.as())!))
        guard let image = gdk_paintable_get_current_image(paintable.object.as()) else { throw .renderFailed }
        return Frame(image: GObjectReference(taking: GObjectPointer(image)), renderer: GObjectReference(retaining: GObjectPointer(renderer)),
                     width: Double(width), height: Double(height))
    }

    /// ``capture(_:)`` of `widget`, or why there is nothing to save (no widget: not shown).
    static func frame(of widget: GObjectPointer?) -> Result<Frame, Failure> {
        guard let widget else { return .failure(.notRealized) }
        return Result { () throws(Failure) in try capture(widget) }
    }

    /// Saves `frame` to `path` as PNG, with the renderer that painted it.
    static func save(_ frame: Frame, to path: String) throws(Failure) {
        guard gsk_renderer_is_realized(frame.renderer.object.as()) != 0 else { throw .notRealized }
        let snapshot = gtk_snapshot_new()!
        gdk_paintable_snapshot(frame.image.object.as(), snapshot, frame.width, frame.height)
        guard let node = gtk_snapshot_free_to_node(snapshot) else { throw .renderFailed }
        defer { gsk_render_node_unref(node) }
        guard let texture = gsk_renderer_render_texture(frame.renderer.object.as(), node, nil) else { throw .renderFailed }
        defer { g_object_unref(GObjectPointer(texture)) }
        guard gdk_texture_save_to_png(texture, path) != 0 else { throw .writeFailed(path: path) }
    }
}
