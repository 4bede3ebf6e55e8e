import CGtk

/// Swift closures as GObject signal handlers.
///
/// Each handler is boxed and retained by the connection; GLib calls the box's destroy notify
/// (which releases it) when the handler is disconnected or the instance is finalized, so no
/// closure outlives its widget. Handlers run on the GTK thread, which under Trellis is the
/// main actor (see `MainQueueBridge`).
@MainActor
enum Signals {
    final class VoidBox {
        let body: @MainActor (GObjectPointer) -> Void
        init(_ body: @escaping @MainActor (GObjectPointer) -> Void) { self.body = body }
    }

    final class UIntBox {
        let body: @MainActor (GObjectPointer, UInt32) -> Void
        init(_ body: @escaping @MainActor (GObjectPointer, UInt32) -> Void) { self.body = body }
    }

    final class ListItemBox {
        let body: @MainActor (GObjectPointer, GObjectPointer) -> Void
        init(_ body: @escaping @MainActor (GObjectPointer, GObjectPointer) -> Void) { self.body = body }
    }

    /// Connects a handler of signature `void (*)(GObject *instance, gpointer user_data)`.
    @discardableResult
    static func connect(
        _ instance: GObjectPointer, _ signal: String, after: Bool = false,
        _ body: @escaping @MainActor (GObjectPointer) -> Void
    ) -> UInt {
        let thunk: @convention(c) (gpointer?, gpointer?) -> Void = { instance, data in
            guard let instance, let data else { return }
            let box = Unmanaged<VoidBox>.fromOpaque(data).takeUnretainedValue()
            MainActor.assumeIsolated { box.body(instance) }
        }
        let release: @convention(c) (gpointer?, UnsafeMutablePointer<GClosure>?) -> Void = { data, _ in
            guard let data else { return }
            Unmanaged<VoidBox>.fromOpaque(data).release()
        }
        return connectRaw(instance, signal, unsafeBitCast(thunk, to: GCallback.self),
                          Unmanaged.passRetained(VoidBox(body)).toOpaque(), release, after)
    }

    /// Connects a handler of signature `void (*)(GObject *instance, guint value, gpointer user_data)`,
    /// such as `GtkListView::activate`.
    @discardableResult
    static func connect(
        _ instance: GObjectPointer, _ signal: String, after: Bool = false,
        uint body: @escaping @MainActor (GObjectPointer, UInt32) -> Void
    ) -> UInt {
        let thunk: @convention(c) (gpointer?, guint, gpointer?) -> Void = { instance, value, data in
            guard let instance, let data else { return }
            let box = Unmanaged<UIntBox>.fromOpaque(data).takeUnretainedValue()
            MainActor.assumeIsolated { box.body(instance, value) }
        }
        let release: @convention(c) (gpointer?, UnsafeMutablePointer<GClosure>?) -> Void = { data, _ in
            guard let data else { return }
            Unmanaged<UIntBox>.fromOpaque(data).release()
        }
        return connectRaw(instance, signal, unsafeBitCast(thunk, to: GCallback.self),
                          Unmanaged.passRetained(UIntBox(body)).toOpaque(), release, after)
    }

    /// Connects a handler of signature `void (*)(GObject *instance, GObject *object, gpointer user_data)`,
    /// such as the `GtkSignalListItemFactory` signals.
    @discardableResult
    static func connect(
        _ instance: GObjectPointer, _ signal: String, after: Bool = false,
        object body: @escaping @MainActor (GObjectPointer, GObjectPointer) -> Void
    ) -> UInt {
        let thunk: @convention(c) (gpointer?, gpointer?, gpointer?) -> Void = { instance, object, data in
            guard let instance, let object, let data else { return }
            let box = Unmanaged<ListItemBox>.fromOpaque(data).takeUnretainedValue()
            MainActor.assumeIsolated { box.body(instance, object) }
        }
        let release: @convention(c) (gpointer?, UnsafeMutablePointer<GClosure>?) -> Void = { data, _ in
            guard let data else { return }
            Unmanaged<ListItemBox>.fromOpaque(data).release()
        }
        return connectRaw(instance, signal, unsafeBitCast(thunk, to: GCallback.self),
                          Unmanaged.passRetained(ListItemBox(body)).toOpaque(), release, after)
    }

    /// Connects a handler of signature `void (*)(GObject *instance, gpointer arg, gpointer user_data)`
    /// whose argument may be `NULL`, such as `GSimpleAction::activate` (its `GVariant *` parameter).
    @discardableResult
    static func connect(
        _ instance: GObjectPointer, _ signal: String, after: Bool = false,
        optionalArgument body: @escaping @MainActor (GObjectPointer, GObjectPointer?) -> Void
    ) -> UInt {
        let thunk: @convention(c) (gpointer?, gpointer?, gpointer?) -> Void = { instance, argument, data in
            guard let instance, let data else { return }
            let box = Unmanaged<OptionalArgumentBox>.fromOpaque(data).takeUnretainedValue()
            MainActor.assumeIsolated { box.body(instance, argument) }
        }
        let release: @convention(c) (gpointer?, UnsafeMutablePointer<GClosure>?) -> Void = { data, _ in
            guard let data else { return }
            Unmanaged<OptionalArgumentBox>.fromOpaque(data).release()
        }
        return connectRaw(instance, signal, unsafeBitCast(thunk, to: GCallback.self),
                          Unmanaged.passRetained(OptionalArgumentBox(body)).toOpaque(), release, after)
    }

    final class OptionalArgumentBox {
        let body: @MainActor (GObjectPointer, GObjectPointer?) -> Void
        init(_ body: @escaping @MainActor (GObjectPointer, GObjectPointer?) -> Void) { self.body = body }
    }

    /// Disconnects a handler; its closure is released by GLib.
    static func disconnect(_ instance: GObjectPointer, _ id: UInt) {
        if g_signal_handler_is_connected(instance.as(), gulong(id)) != 0 {
            g_signal_handler_disconnect(instance.as(), gulong(id))
        }
    }

    private static func connectRaw(
        _ instance: GObjectPointer, _ signal: String, _ callback: GCallback, _ data: UnsafeMutableRawPointer,
        _ release: @escaping GClosureNotify, _ after: Bool
    ) -> UInt {
        let flags = after ? G_CONNECT_AFTER : GConnectFlags(0)
        return UInt(g_signal_connect_data(instance.as(), signal, callback, data, release, flags))
    }
}
