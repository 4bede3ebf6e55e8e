/* trellis-main-queue-bridge.c: see the header for why this exists. */
#include "trellis-main-queue-bridge.h"

#include <errno.h>
#include <glib-unix.h>
#include <stdint.h>
#include <unistd.h>

/* Exported by the toolchain's libdispatch (the CoreFoundation run-loop hooks). On Linux the
 * handle is the file descriptor of an eventfd. */
extern int _dispatch_get_main_queue_handle_4CF (void);
extern void _dispatch_main_queue_callback_4CF (void *msg);

static guint bridge_source_id = 0;
static guint64 bridge_wakeups = 0;

static gboolean
on_main_queue_ready (gint fd, GIOCondition condition, gpointer user_data)
{
  uint64_t counter;
  ssize_t n;

  (void) condition;
  (void) user_data;
  bridge_wakeups++;

  /* Clear the eventfd first, or the fd stays readable and the loop spins. */
  do
    n = read (fd, &counter, sizeof counter);
  while (n < 0 && errno == EINTR);

  _dispatch_main_queue_callback_4CF (NULL);
  return G_SOURCE_CONTINUE;
}

static void
drain_once (gpointer user_data)
{
  (void) user_data;
  _dispatch_main_queue_callback_4CF (NULL);
}

guint
trellis_main_queue_bridge_install (void)
{
  int fd;

  if (bridge_source_id != 0)
    return bridge_source_id;

  fd = _dispatch_get_main_queue_handle_4CF ();
  if (fd < 0)
    return 0;

  bridge_source_id = g_unix_fd_add (fd, G_IO_IN, on_main_queue_ready, NULL);
  /* Work queued before the handle existed may not have signalled the eventfd:
   * drain once on the first loop iteration. */
  g_idle_add_once (drain_once, NULL);
  return bridge_source_id;
}

void
trellis_main_queue_bridge_remove (void)
{
  if (bridge_source_id == 0)
    return;
  g_source_remove (bridge_source_id);
  bridge_source_id = 0;
}

guint64
trellis_main_queue_bridge_wakeups (void)
{
  return bridge_wakeups;
}
