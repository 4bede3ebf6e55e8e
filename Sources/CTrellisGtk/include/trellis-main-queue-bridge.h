/* trellis-main-queue-bridge.h: drain the dispatch main queue from the GLib main loop.
 *
 * Swift's main actor and DispatchQueue.main are served by libdispatch's main queue, which
 * only dispatchMain() or a RunLoop drain. GTK owns the main thread through
 * g_application_run(), so without this bridge `await MainActor.run {}` never runs.
 *
 * libdispatch exposes the main queue as an eventfd (_dispatch_get_main_queue_handle_4CF).
 * The bridge watches it with g_unix_fd_add(); on wake-up it first reads the eventfd (8 bytes)
 * to clear it -- otherwise the loop spins -- then drains the queue with
 * _dispatch_main_queue_callback_4CF().
 */
#ifndef TRELLIS_MAIN_QUEUE_BRIDGE_H
#define TRELLIS_MAIN_QUEUE_BRIDGE_H

#include <glib.h>

G_BEGIN_DECLS

/**
 * trellis_main_queue_bridge_install:
 * Attaches the bridge to the default main context. Idempotent: a second call returns the source id of the first.
 * Must be called on the process's main thread.
 *
 * Returns: the GSource id of the bridge, or 0 if libdispatch gave no handle.
 */
guint trellis_main_queue_bridge_install (void);

/**
 * trellis_main_queue_bridge_remove:
 *
 * Detaches the bridge; main-queue work then waits until it is installed again.
 */
void trellis_main_queue_bridge_remove (void);

/**
 * trellis_main_queue_bridge_wakeups:
 *
 * Returns: how many times the bridge has woken up since the process started (for tests
 * that check an idle loop does not spin).
 */
guint64 trellis_main_queue_bridge_wakeups (void);

G_END_DECLS

#endif
