/* host.h: the plugin's side of a plugin process (Sources/TrellisCore/Plugins/Process/PluginProcess.swift
 * is the shell's). The host functions the plugin calls are answered here at once and forwarded
 * to the shell; the shell's calls (service start and stop, events for the plugin's watches,
 * new settings) are made on the plugin one at a time, on the main thread.
 *
 * Messages (wire.h):
 * - to the shell: `entry` (when the plugin's entry returns, with what confines the process),
 *   `register`, `refuse`, `watch`, `unwatch`, `trigger`, `navigate`, `request`, `log`, and
 *   the answers `started`, `stopped` (with the request's number) and `done` (one per event);
 * - from the shell: `grants` (first, before the library is opened), then `start`, `stop`,
 *   `event`, `settings`.
 *
 * Watch ids are allocated here, so `watch` answers the plugin at once; arguments are checked
 * here as the shell checks them, and checked again by the shell, which does not trust this
 * process (the plugin can write to the socket itself).
 */
#ifndef TRELLIS_HOST_HOST_H
#define TRELLIS_HOST_HOST_H

#include "trellis_plugin.h"
#include "wire.h"

/** The shell's end of the socket: file descriptor 3. */
#define HOST_SOCKET 3
/** The longest name (event message, watch pattern, route, command, service) sent to the
 * shell: a longer one is refused with TRELLIS_ERROR_INVALID_ARGUMENT (it would not fit a frame). */
#define HOST_MAXIMUM_NAME 65536
/** The longest log line sent, in bytes; a longer one is cut, with "…". */
#define HOST_MAXIMUM_LOG 65536

/** Sets up the host functions for plugin `plugin_id`, with its setting values (JSON text). */
void host_init (const char *plugin_id, const char *settings_json, size_t settings_length);

/** The table the plugin's entry gets; valid for the life of the process. */
const trellis_host_api *host_table (void);

/** Says that the plugin's entry returned: registrations are refused from now on. */
void host_entry_returned (void);

/** Sends a log line to the shell, at `level` (TRELLIS_LOG_*). */
void host_log (int32_t level, const char *text);

/** Serves one message of the shell's. */
void host_serve (const wire_message *message);

#endif
