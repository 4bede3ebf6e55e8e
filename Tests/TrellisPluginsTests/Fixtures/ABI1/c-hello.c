/* c-hello.c: a Trellis plugin in plain C.
 *
 * Registers the service "c_hello". Started, it triggers "hello:started" with its start
 * options as data, and while running:
 *   - answers every "hello:ping" with "hello:pong", passing the ping's data through unchanged
 *     (JSON text in, JSON text out: no parsing needed);
 *   - on "hello:open", asks the host to navigate to "/hello" with the event's data;
 *   - on "hello:request", sends the front controller the command "hello.greet" with the
 *     event's data as parameters.
 * Stopped, it removes its watch. Only trellis_plugin.h is used: no Swift, no GLib.
 */
#include <stdio.h>
#include <string.h>

#include "trellis_plugin.h"

/* The host table: host-owned and valid for the life of the process. */
static const trellis_host_api *host;
/* The watch of the running service ("hello:*"), 0 when stopped. Start and stop are serialised by the
 * host's service registry. */
static trellis_watch_id hello_watch;

static void
on_hello (void *user_data, const char *message, const char *data_json)
{
  (void) user_data;
  if (strcmp (message, "hello:ping") == 0)
    host->trigger (host->context, "hello:pong", data_json);
  else if (strcmp (message, "hello:open") == 0)
    host->navigate (host->context, "/hello", data_json);
  else if (strcmp (message, "hello:request") == 0)
    host->handle_request (host->context, "hello.greet", data_json);
}

static int32_t
hello_start (void *service_data, const char *options_json, char *error, size_t error_size)
{
  (void) service_data;
  if (hello_watch != 0)
    return TRELLIS_OK;
  hello_watch = host->watch (host->context, "hello:*", on_hello, NULL, NULL);
  if (hello_watch == 0)
    {
      snprintf (error, error_size, "the host refused to watch hello:*");
      return TRELLIS_ERROR_REFUSED;
    }
  host->trigger (host->context, "hello:started", options_json);
  host->log (host->context, TRELLIS_LOG_INFO, "hello from C");
  return TRELLIS_OK;
}

static void
hello_stop (void *service_data, const char *options_json)
{
  (void) service_data;
  (void) options_json;
  if (hello_watch != 0)
    host->unwatch (host->context, hello_watch);
  hello_watch = 0;
}

/* Refusals are string literals: plugin-owned, valid for the life of the process. */
static const trellis_plugin_info accepted = { TRELLIS_PLUGIN_ABI_VERSION, sizeof (trellis_plugin_info), NULL };
static const trellis_plugin_info too_old = { TRELLIS_PLUGIN_ABI_VERSION, sizeof (trellis_plugin_info),
                                             "the host's ABI is older than this plugin's (1)" };

__attribute__ ((visibility ("default"))) const trellis_plugin_info *
trellis_plugin_entry (const trellis_host_api *api)
{
  if (api == NULL || api->abi_version < TRELLIS_PLUGIN_ABI_VERSION || !TRELLIS_HOST_HAS (api, context))
    return &too_old;
  host = api;
  trellis_service_definition service = {
    .struct_size = sizeof (trellis_service_definition),
    .name = "c_hello",
    .service_data = NULL,
    .start = hello_start,
    .stop = hello_stop,
    .release = NULL,
  };
  api->register_service (api->context, &service);
  return &accepted;
}
