/* flood-plugin.c: a plugin written to flood the shell, as `trellis-bench plugins` measures it
 * (plugin-flood-frame-gap). It serves a text page ("/flood") and, on "flood:go" with
 * {"kind": K}, floods from a thread of its own until "flood:stop": K is "navigate" (to its own
 * page), "page" (a 1 MB text for that page), "status" (its status item), "trigger", "log",
 * "watch" or "stderr". Built from trellis_plugin.h alone. */
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "trellis_plugin.h"

static const trellis_host_api *host;
static atomic_long page = -1;
static atomic_int running;
static char kind[16];

static void
nothing (void *user_data, const char *message, const char *data)
{
  (void) user_data; (void) message; (void) data;
}

static void *
flood (void *unused)
{
  (void) unused;
  static char block[65536];
  size_t text_size = 1 << 20;
  char *text = malloc (text_size + 64);
  memset (block, 'x', sizeof block);
  while (atomic_load (&running))
    {
      if (strcmp (kind, "navigate") == 0)
        host->navigate (host->context, "/flood", NULL);
      else if (strcmp (kind, "page") == 0)
        {
          int head = sprintf (text, "{\"page\": %ld, \"text\": \"", atomic_load (&page));
          memset (text + head, 'y', text_size);
          strcpy (text + head + text_size, "\"}");
          host->trigger (host->context, "flood:page:show", text);
        }
      else if (strcmp (kind, "status") == 0)
        host->trigger (host->context, "flood:status", "{\"item\": \"load\", \"text\": \"flooding\"}");
      else if (strcmp (kind, "trigger") == 0)
        host->trigger (host->context, "flood:tick", NULL);
      else if (strcmp (kind, "log") == 0)
        host->log (host->context, TRELLIS_LOG_WARNING, "flood: a line");
      else if (strcmp (kind, "watch") == 0)
        host->watch (host->context, "flood:w", nothing, NULL, NULL);
      else if (strcmp (kind, "stderr") == 0)
        (void) write (2, block, sizeof block);
      else
        usleep (1000);  /* "none": the measurement's floor, nothing sent */
    }
  free (text);
  return NULL;
}

static void
on_event (void *user_data, const char *message, const char *data)
{
  (void) user_data;
  if (strcmp (message, "flood:page:open") == 0)
    {
      const char *at = strstr (data, "\"page\"");
      atomic_store (&page, at ? strtol (at + 7, NULL, 10) : -1);
      char json[96];
      snprintf (json, sizeof json, "{\"page\": %ld, \"text\": \"Flooding.\"}", atomic_load (&page));
      host->trigger (host->context, "flood:page:show", json);
    }
  else if (strcmp (message, "flood:go") == 0 && !atomic_load (&running))
    {
      const char *at = strstr (data, "\"kind\"");
      const char *start = at ? strchr (at + 6, '"') : NULL;
      const char *end = start ? strchr (start + 1, '"') : NULL;
      if (end == NULL || end - start - 1 >= (long) sizeof kind)
        return;
      memcpy (kind, start + 1, (size_t) (end - start - 1));
      kind[end - start - 1] = 0;
      atomic_store (&running, 1);
      /* The plugin's own thread, in the plugin's process: it floods while the handler returns,
         as a plugin written to do harm would. Not shell code. */
      pthread_t thread;
      pthread_create (&thread, NULL, flood, NULL);
      pthread_detach (thread);
    }
  else if (strcmp (message, "flood:stop") == 0)
    atomic_store (&running, 0);
}

static const trellis_plugin_info info = { TRELLIS_PLUGIN_ABI_VERSION, sizeof (trellis_plugin_info), NULL };

__attribute__ ((visibility ("default"))) const trellis_plugin_info *
trellis_plugin_entry (const trellis_host_api *api)
{
  host = api;
  host->watch (host->context, "flood:go", on_event, NULL, NULL);
  host->watch (host->context, "flood:stop", on_event, NULL, NULL);
  host->watch (host->context, "flood:page:open", on_event, NULL, NULL);
  return &info;
}
