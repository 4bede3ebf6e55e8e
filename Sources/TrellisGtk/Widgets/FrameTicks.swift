import CGtk

/// Work that waits for GTK's next frames: a row's widget exists only once the list has been
/// laid out again. Counted in frames of the widget's frame clock, never in time.
@MainActor
enum FrameTicks {
    /// What a tick callback runs (released by GTK with the callback).
    final class Body {
        let run: @MainActor () -> Bool
        var framesLeft: Int
        init(frames: Int, _ run: @escaping @MainActor () -> Bool) {
            self.run = run
            framesLeft = frames
        }
    }

    /// Calls `body` at each of the next `frames` frames of `widget` (while it is mapped) until
    /// it returns `true`.
    static func repeatUntilDone(on widget: Widget, frames: Int, _ body: @escaping @MainActor () -> Bool) {
        let tick: GtkTickCallback = { _, _, data in
            // Safe: `data` is the body retained below, released by GTK when the callback ends.
            let body = Unmanaged<Body>.fromOpaque(data!).takeUnretainedValue()
            return MainActor.assumeIsolated {
                body.framesLeft -= 1
                return body.run() || body.framesLeft <= 0 ? 0 : 1  // G_SOURCE_REMOVE : G_SOURCE_CONTINUE
            }
        }
        let release: GDestroyNotify = { data in Unmanaged<Body>.fromOpaque(data!).release() }
        gtk_widget_add_tick_callback(widget.widget, tick, Unmanaged.passRetained(Body(frames: frames, body)).toOpaque(), release)
    }
}
