import CGtk
import CTrellisGtk

/// How wide a page's content may grow: on a wide window, forms, lists and text stay in a
/// centred column of at most ``maximum`` pixels (as GNOME's apps keep theirs, with libadwaita's
/// `AdwClamp`), and fill a narrower window.
@MainActor
enum ContentWidth {
    /// The widest a page's content is laid out, in pixels.
    static let maximum: Int32 = 800

    /// `content` in a ``maximum``-wide centred column (a `TrellisClamp`), expanding as
    /// `content` does.
    static func limit(_ content: Widget) -> Widget {
        let clamp = Widget(trellis_clamp_new(content.widget, maximum))
        gtk_widget_set_hexpand(clamp.widget, 1)
        gtk_widget_set_vexpand(clamp.widget, gtk_widget_get_vexpand(content.widget))
        return clamp
    }

    /// The width the column inside `clamp` was given at the last layout (automation).
    static func allocatedWidth(of clamp: Widget) -> Int32 {
        gtk_widget_get_width(trellis_clamp_get_child(clamp.object.as()))
    }
}
