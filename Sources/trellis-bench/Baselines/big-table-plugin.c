/* big-table-plugin.c: a plugin serving a table page of 1,000,000 rows ("/big"), by range, as
 * `trellis-bench plugins` measures it (plugin-page-1m). Built from trellis_plugin.h alone. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "trellis_plugin.h"

static const trellis_host_api *host;

static long
number (const char *json, const char *key)
{
  const char *at = strstr (json, key);
  if (at == NULL)
    return -1;
  at += strlen (key);
  while (*at == '"' || *at == ' ' || *at == ':')
    at++;
  return strtol (at, NULL, 10);
}

static void
on_page (void *user_data, const char *message, const char *data)
{
  (void) user_data;
  long page = number (data, "\"page\"");
  if (strcmp (message, "big:page:open") == 0)
    {
      char json[96];
      snprintf (json, sizeof json, "{\"page\": %ld, \"table\": {\"count\": 1000000}}", page);
      host->trigger (host->context, "big:page:show", json);
    }
  else if (strcmp (message, "big:page:fetch") == 0)
    {
      long start = number (data, "\"start\""), count = number (data, "\"count\"");
      char *json = malloc (64 + 32 * (size_t) count);
      char *end = json + sprintf (json, "{\"page\": %ld, \"start\": %ld, \"rows\": [", page, start);
      for (long i = start; i < start + count; i++)
        end += sprintf (end, "%s\"Row %ld\"", i > start ? ", " : "", i);
      strcpy (end, "]}");
      host->trigger (host->context, "big:page:rows", json);
      free (json);
    }
}

static const trellis_plugin_info info = { TRELLIS_PLUGIN_ABI_VERSION, sizeof (trellis_plugin_info), NULL };

__attribute__ ((visibility ("default"))) const trellis_plugin_info *
trellis_plugin_entry (const trellis_host_api *api)
{
  host = api;
  api->watch (api->context, "big:page:*", on_page, NULL, NULL);
  return &info;
}
