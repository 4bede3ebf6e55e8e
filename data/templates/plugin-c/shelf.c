/* shelf.c: the Shelf plugin for Trellis, in C. Its page, /shelf, lists items; the page's Add
 * button adds one; the status line counts them. Its settings (Preferences, Ctrl+,) name the
 * items and cap their number. The events' JSON is read and written with trellis_json.h. */
#include <stdio.h>
#include <string.h>
#include "trellis_json.h"
#include "trellis_plugin.h"

#define ID "shelf" /* plugin.json's "id": the plugin's pages and events are under it */

static const trellis_host_api *host;
static char rows[1000][2][64]; /* one row per item, each two column texts */
static int count;
static int64_t pages[32];      /* the numbers of the pages open now */

/* Starts the object `out` with the page's number: every page message has it. */
static void begin (trellis_json_writer *out, int64_t page)
{
  trellis_json_writer_init (out);
  trellis_json_begin_object (out);
  trellis_json_member_int (out, "page", page);
}

/* Triggers `message` with the object `out` holds, and frees it. */
static void send (const char *message, trellis_json_writer *out)
{
  trellis_json_end_object (out);
  if (trellis_json_writer_text (out)) host->trigger (host->context, message, trellis_json_writer_text (out));
  trellis_json_writer_free (out);
}

static void add (void)
{
  static const char none[] = "{}";
  char settings[1024], label[48] = "Item", text[32];
  trellis_json values = { none, none + 2 };
  int64_t length = host->get_settings (host->context, settings, sizeof settings);
  if (length >= 0 && length < (int64_t) sizeof settings) trellis_json_parse (settings, (size_t) length, &values, NULL);
  int64_t limit = trellis_json_get_int (values, "limit", 10); /* plugin.json's "settings" */
  trellis_json_get_string (values, "label", label, sizeof label);
  if (count >= limit || count >= 1000) return;
  snprintf (rows[count][0], sizeof rows[count][0], "%s %d", label, count + 1);
  snprintf (rows[count][1], sizeof rows[count][1], "%d of %d", count + 1, (int) limit);
  count++;
  trellis_json_writer out;
  for (int i = 0; i < 32; i++) if (pages[i] != 0) { /* {"page", "changes": [{"insert": [row, 1]}]} */
    begin (&out, pages[i]);
    trellis_json_key (&out, "changes"), trellis_json_begin_array (&out), trellis_json_begin_object (&out);
    trellis_json_key (&out, "insert"), trellis_json_begin_array (&out), trellis_json_int_value (&out, count - 1);
    trellis_json_int_value (&out, 1), trellis_json_end_array (&out), trellis_json_end_object (&out), trellis_json_end_array (&out);
    send (ID ":page:changed", &out);
  }
  snprintf (text, sizeof text, count == 1 ? "%d item" : "%d items", count); /* the status item "count" */
  trellis_json_writer_init (&out);
  trellis_json_begin_object (&out);
  trellis_json_member_string (&out, "item", "count"), trellis_json_member_string (&out, "text", text);
  send (ID ":status", &out);
}

/* The shell's requests (open a page, fetch its rows, close it) and the command "add". */
static void on_event (void *user_data, const char *message, const char *data_json)
{
  trellis_json data;
  trellis_json_writer out;
  char command[16] = "";
  (void) user_data;
  if (!trellis_json_parse (data_json, strlen (data_json), &data, NULL)) return;
  int64_t page = trellis_json_get_int (data, "page", 0), start = trellis_json_get_int (data, "start", 0);
  if (strcmp (message, ID ":command") == 0 && trellis_json_get_string (data, "command", command, sizeof command)
      && strcmp (command, "add") == 0) {
    add ();
  } else if (strcmp (message, ID ":page:open") == 0) { /* {"page", "table": {"count"}} */
    for (int i = 0; i < 32; i++) if (pages[i] == 0) { pages[i] = page; break; }
    begin (&out, page);
    trellis_json_key (&out, "table"), trellis_json_begin_object (&out);
    trellis_json_member_int (&out, "count", count), trellis_json_end_object (&out);
    send (ID ":page:show", &out);
  } else if (strcmp (message, ID ":page:fetch") == 0) { /* {"page", "start", "rows": [[column, …], …]} */
    begin (&out, page);
    trellis_json_member_int (&out, "start", start);
    trellis_json_key (&out, "rows"), trellis_json_begin_array (&out);
    for (int64_t row = start; row < start + trellis_json_get_int (data, "count", 0); row++) {
      trellis_json_begin_array (&out);
      for (int column = 0; column < 2; column++) trellis_json_string_value (&out, row < count ? rows[row][column] : "");
      trellis_json_end_array (&out);
    }
    trellis_json_end_array (&out);
    send (ID ":page:rows", &out);
  } else if (strcmp (message, ID ":page:close") == 0) {
    for (int i = 0; i < 32; i++) if (pages[i] == page) pages[i] = 0;
  }
}

static const trellis_plugin_info info = { TRELLIS_PLUGIN_ABI_VERSION, sizeof info, NULL };
static const trellis_plugin_info too_old = { TRELLIS_PLUGIN_ABI_VERSION, sizeof info, "needs Trellis's plugin ABI 2" };

/* The one symbol Trellis looks up in the library. */
__attribute__ ((visibility ("default"))) const trellis_plugin_info *
trellis_plugin_entry (const trellis_host_api *api)
{
  if (!TRELLIS_HOST_HAS (api, get_settings)) return &too_old;
  host = api;
  const char *messages[] = { ID ":page:open", ID ":page:fetch", ID ":page:close", ID ":command" };
  for (int i = 0; i < 4; i++) host->watch (host->context, messages[i], on_event, NULL, NULL);
  return &info;
}
