import CGtk
import Logging

/// Swift closures as GObject signal handlers, one connection helper per handler signature
/// (``SignalSignature``), each checked against GObject's description of the signal before it
/// connects: a handler that does not fit its signal is refused — a failed assertion in debug
/// builds (the debugger stops at the connect), an error in the log and no connection in
/// release builds — instead of crashing when the signal is first emitted.
///
/// ```swift
/// button.connect("clicked") { [weak self] in self?.save() }
/// dropDown.connectNotify("selected") { [weak self] in self?.choiceChanged() }
/// listView.connect("activate", unsignedInteger: { [weak self] position in self?.open(position) })
/// ```
///
/// Each handler is boxed and retained by the connection; GLib calls the box's destroy notify
/// (which releases it) when the handler is disconnected or the instance is finalized, so no
/// closure outlives its object. A closure must not hold its own object strongly (the object
/// owns the closure): capture wrappers `weak`. Handlers run on the GTK thread, which under
/// Trellis is the main actor (see `MainQueueBridge`).
extension GObjectReference {
    /// Connects a handler of `void (*)(GObject *, gpointer)` (`GtkButton::clicked`, …).
    @discardableResult
    func connect(_ signal: String, after: Bool = false, _ handler: @escaping @MainActor () -> Void) -> UInt? {
        Signals.connect(object, signal, after: after, handler)
    }

    /// Connects a handler of `void (*)(GObject *, guint, gpointer)` (`GtkListView::activate`).
    @discardableResult
    func connect(_ signal: String, unsignedInteger handler: @escaping @MainActor (UInt32) -> Void) -> UInt? {
        Signals.connect(object, signal, unsignedInteger: handler)
    }

    /// Connects a handler of `void (*)(GObject *, gint, gpointer)` (`GtkDialog::response`).
    @discardableResult
    func connect(_ signal: String, integer handler: @escaping @MainActor (Int32) -> Void) -> UInt? {
        Signals.connect(object, signal, integer: handler)
    }

    /// Connects a handler of `void (*)(GObject *, <enum>, gpointer)` (`GtkSorter::changed`).
    @discardableResult
    func connect(_ signal: String, enumeration handler: @escaping @MainActor (Int32) -> Void) -> UInt? {
        Signals.connect(object, signal, enumeration: handler)
    }

    /// Connects a handler of `void (*)(GObject *, T *, gpointer)` where `T` is `type` or a
    /// supertype of what the signal passes (`GtkSignalListItemFactory::bind`'s list item).
    @discardableResult
    func connect(_ signal: String, object type: GType, _ handler: @escaping @MainActor (GObjectPointer) -> Void) -> UInt? {
        Signals.connect(object, signal, object: type, handler)
    }

    /// Connects a handler of `void (*)(GObject *, GVariant *, gpointer)`, whose variant may be
    /// `NULL` (`GSimpleAction::activate`).
    @discardableResult
    func connect(_ signal: String, variant handler: @escaping @MainActor (OpaquePointer?) -> Void) -> UInt? {
        Signals.connect(object, signal, variant: handler)
    }

    /// Connects a handler to `notify::property`, `void (*)(GObject *, GParamSpec *, gpointer)`:
    /// called after the property changed. The property must exist on the object's type.
    @discardableResult
    func connectNotify(_ property: String, _ handler: @escaping @MainActor () -> Void) -> UInt? {
        Signals.connectNotify(object, property, handler)
    }

    /// Disconnects handler `id` (its closure is released by GLib).
    func disconnect(_ id: UInt) {
        Signals.disconnect(object, id)
    }
}

/// The connections themselves, on a GObject pointer: what the helpers on ``GObjectReference``
/// call, and what the list model's C boundary uses directly for GTK's list items.
@MainActor
enum Signals {
    /// What a refused connection does besides not connecting: debug builds fail an assertion,
    /// release builds log an error (`trellis.gtk.signals`). Tests replace it to read the message.
    static var reportRefusal: (String) -> Void = { message in
        Logger(trellis: "trellis.gtk.signals").error("signal handler refused: \(message)")
        assertionFailure("signal handler refused: \(message)")
    }

    /// The closure a connection retains (released by ``release``).
    final class Handler<Body> {
        let body: Body
        init(_ body: Body) { self.body = body }
    }

    /// GLib's destroy notify for every handler: releases the box retained at the connect.
    private static let release: GClosureNotify = { data, _ in
        // Safe: `data` is a box retained once by `connectChecked`, released here once, when
        // GLib drops the handler (disconnect or finalization).
        guard let data else { return }
        Unmanaged<AnyObject>.fromOpaque(data).release()
    }

    @discardableResult
    static func connect(_ instance: GObjectPointer, _ signal: String, after: Bool = false,
                        _ body: @escaping @MainActor () -> Void) -> UInt? {
        let thunk: @convention(c) (gpointer?, gpointer?) -> Void = { _, data in
            // Safe: `data` is the box this connection retains until GLib releases it.
            guard let data else { return }
            let handler = Unmanaged<Handler<@MainActor () -> Void>>.fromOpaque(data).takeUnretainedValue()
            MainActor.assumeIsolated { handler.body() }
        }
        return connectChecked(instance, signal, .none, unsafeBitCast(thunk, to: GCallback.self), Handler(body), after: after)
    }

    @discardableResult
    static func connect(_ instance: GObjectPointer, _ signal: String,
                        unsignedInteger body: @escaping @MainActor (UInt32) -> Void) -> UInt? {
        let thunk: @convention(c) (gpointer?, guint, gpointer?) -> Void = { _, value, data in
            // Safe: as above; GLib passes a guint, as the check made sure.
            guard let data else { return }
            let handler = Unmanaged<Handler<@MainActor (UInt32) -> Void>>.fromOpaque(data).takeUnretainedValue()
            MainActor.assumeIsolated { handler.body(value) }
        }
        return connectChecked(instance, signal, SignalSignature(arguments: [.unsignedInteger]),
                              unsafeBitCast(thunk, to: GCallback.self), Handler(body))
    }

    @discardableResult
    static func connect(_ instance: GObjectPointer, _ signal: String,
                        integer body: @escaping @MainActor (Int32) -> Void) -> UInt? {
        let thunk: @convention(c) (gpointer?, gint, gpointer?) -> Void = { _, value, data in
            // Safe: as above; GLib passes a gint, as the check made sure.
            guard let data else { return }
            let handler = Unmanaged<Handler<@MainActor (Int32) -> Void>>.fromOpaque(data).takeUnretainedValue()
            MainActor.assumeIsolated { handler.body(value) }
        }
        return connectChecked(instance, signal, SignalSignature(arguments: [.integer]),
                              unsafeBitCast(thunk, to: GCallback.self), Handler(body))
    }

    @discardableResult
    static func connect(_ instance: GObjectPointer, _ signal: String,
                        enumeration body: @escaping @MainActor (Int32) -> Void) -> UInt? {
        let thunk: @convention(c) (gpointer?, gint, gpointer?) -> Void = { _, value, data in
            // Safe: as above; GLib passes an enum as an int, as the check made sure.
            guard let data else { return }
            let handler = Unmanaged<Handler<@MainActor (Int32) -> Void>>.fromOpaque(data).takeUnretainedValue()
            MainActor.assumeIsolated { handler.body(value) }
        }
        return connectChecked(instance, signal, SignalSignature(arguments: [.enumeration]),
                              unsafeBitCast(thunk, to: GCallback.self), Handler(body))
    }

    @discardableResult
    static func connect(_ instance: GObjectPointer, _ signal: String, object type: GType,
                        _ body: @escaping @MainActor (GObjectPointer) -> Void) -> UInt? {
        let thunk: @convention(c) (gpointer?, gpointer?, gpointer?) -> Void = { _, object, data in
            // Safe: as above; GLib passes an instance of the checked type, alive for the call.
            guard let object, let data else { return }
            let handler = Unmanaged<Handler<@MainActor (GObjectPointer) -> Void>>.fromOpaque(data).takeUnretainedValue()
            MainActor.assumeIsolated { handler.body(object) }
        }
        return connectChecked(instance, signal, SignalSignature(arguments: [.object(type)]),
                              unsafeBitCast(thunk, to: GCallback.self), Handler(body))
    }

    @discardableResult
    static func connect(_ instance: GObjectPointer, _ signal: String,
                        variant body: @escaping @MainActor (OpaquePointer?) -> Void) -> UInt? {
        let thunk: @convention(c) (gpointer?, OpaquePointer?, gpointer?) -> Void = { _, variant, data in
            // Safe: as above; the variant (or NULL) is GLib's, alive for the call.
            guard let data else { return }
            let handler = Unmanaged<Handler<@MainActor (OpaquePointer?) -> Void>>.fromOpaque(data).takeUnretainedValue()
            MainActor.assumeIsolated { handler.body(variant) }
        }
        return connectChecked(instance, signal, SignalSignature(arguments: [.variant]),
                              unsafeBitCast(thunk, to: GCallback.self), Handler(body))
    }

    @discardableResult
    static func connectNotify(_ instance: GObjectPointer, _ property: String,
                              _ body: @escaping @MainActor () -> Void) -> UInt? {
        let thunk: @convention(c) (gpointer?, gpointer?, gpointer?) -> Void = { _, _, data in
            // Safe: as above; the GParamSpec is not used.
            guard let data else { return }
            let handler = Unmanaged<Handler<@MainActor () -> Void>>.fromOpaque(data).takeUnretainedValue()
            MainActor.assumeIsolated { handler.body() }
        }
        return connectChecked(instance, "notify::\(property)", SignalSignature(arguments: [.paramSpec]),
                              unsafeBitCast(thunk, to: GCallback.self), Handler(body))
    }

    /// Disconnects a handler; its closure is released by GLib.
    static func disconnect(_ instance: GObjectPointer, _ id: UInt) {
        if g_signal_handler_is_connected(instance.as(), gulong(id)) != 0 {
            g_signal_handler_disconnect(instance.as(), gulong(id))
        }
    }

    /// Connects `callback` with `handler` as its data when `signature` fits the signal (see
    /// ``SignalSignature/mismatch(connecting:to:)``); otherwise reports the refusal and
    /// returns nil.
    private static func connectChecked(_ instance: GObjectPointer, _ signal: String, _ signature: SignalSignature,
                                       _ callback: GCallback, _ handler: AnyObject, after: Bool = false) -> UInt? {
        if let mismatch = signature.mismatch(connecting: signal, to: instance) {
            reportRefusal(mismatch)
            return nil
        }
        let flags = after ? G_CONNECT_AFTER : GConnectFlags(0)
        // Safe: the thunk's C signature is the one checked above; the box is retained here and
        // released by `release` when GLib drops the handler.
        return UInt(g_signal_connect_data(instance.as(), signal, callback, Unmanaged.passRetained(handler).toOpaque(),
                                          release, flags))
    }
}
