import CTrellisGtk

/// Makes `@MainActor` code and `DispatchQueue.main` run inside the GLib main loop.
///
/// GTK owns the main thread through `g_application_run`; libdispatch's main queue (which the
/// main actor uses) is otherwise never drained there. ``install()`` watches the queue's
/// eventfd from the GLib loop; see `trellis-main-queue-bridge.h` for the mechanism.
///
/// ```swift
/// MainQueueBridge.install()          // before g_application_run
/// Task.detached { await MainActor.run { label.text = "ready" } }   // now runs
/// ```
public enum MainQueueBridge {
    /// Attaches the bridge to the default GLib main context. Idempotent. Call on the main thread.
    /// Returns `false` when libdispatch gave no main-queue handle.
    @discardableResult
    public static func install() -> Bool { trellis_main_queue_bridge_install() != 0 }

    /// Detaches the bridge.
    public static func remove() { trellis_main_queue_bridge_remove() }

    /// How many times the bridge has woken the loop (tests check an idle loop does not spin).
    static var wakeups: UInt64 { UInt64(trellis_main_queue_bridge_wakeups()) }
}
