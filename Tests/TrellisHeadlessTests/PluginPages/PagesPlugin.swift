import Foundation
import TrellisTesting

/// A plugin in C that contributes pages, written from `trellis_plugin.h` and the page messages
/// of `PluginPage` alone, compiled with `cc` at test time: a text page, a table of 1,000 rows
/// served by range (activating a row inserts two rows above it), a form that validates, a
/// table whose plugin sends the wrong number of rows, and a page the plugin never answers.
enum PagesPlugin {
    static let manifest = """
        {"id": "pages", "name": "Pages", "version": "1", "abiVersion": 2, "library": "libpages.so",
         "routes": [
           {"pattern": "/pages/hello", "title": "Hello", "content": "text", "public": true},
           {"pattern": "/pages/rows", "title": "Rows", "content": "table"},
           {"pattern": "/pages/form", "title": "Sign", "content": "form"},
           {"pattern": "/pages/bad", "title": "Bad", "content": "table"},
           {"pattern": "/pages/hang", "title": "Hang", "content": "text"},
           {"pattern": "/pages/mute", "title": "Mute", "content": "table"}
         ],
         "commands": [{"id": "mark", "title": "Mark", "placement": "pageActions", "routes": ["/pages/hello", "/app/:id"]}],
         "permissions": {}}
        """

    static let source = #"""
        #include <stdio.h>
        #include <stdlib.h>
        #include <string.h>
        #include <unistd.h>
        #include "trellis_plugin.h"

        static const trellis_host_api *host;
        static int inserted;   /* rows inserted above row 0 by activations */
        static long bad_page = -1, mute_page = -1;  /* mute: a table whose rows are never sent */

        /* The integer after "key": in flat JSON the host sent (enough for these messages). */
        static long number (const char *json, const char *key)
        {
          char quoted[64];
          snprintf (quoted, sizeof quoted, "\"%s\"", key);
          const char *at = strstr (json, quoted);
          if (at == NULL) return -1;
          at += strlen (quoted);
          while (*at == ' ' || *at == ':') at++;
          return strtol (at, NULL, 10);
        }

        static void show (long page, const char *body)
        {
          char *json = malloc (strlen (body) + 64);
          sprintf (json, "{\"page\": %ld, %s}", page, body);
          host->trigger (host->context, "pages:page:show", json);
          free (json);
        }

        static void on_page (void *user_data, const char *message, const char *data)
        {
          (void) user_data;
          long page = number (data, "page");
          if (strcmp (message, "pages:page:open") == 0)
            {
              if (strstr (data, "\"/pages/hello\"")) show (page, "\"text\": \"Hello from a plugin page\"");
              else if (strstr (data, "\"/pages/rows\"")) show (page, "\"title\": \"Rows from C\", \"table\": {\"count\": 1000}");
              else if (strstr (data, "\"/pages/bad\"")) { bad_page = page; show (page, "\"table\": {\"count\": 10}"); }
              else if (strstr (data, "\"/pages/form\""))
                show (page, "\"form\": {\"fields\": [{\"id\": \"name\", \"label\": \"Name\"}],"
                            " \"actions\": [{\"id\": \"sign\", \"label\": \"Sign\"}]}");
              else if (strstr (data, "\"/pages/hang\"")) for (;;) pause ();
              else if (strstr (data, "\"/pages/mute\"")) { mute_page = page; show (page, "\"table\": {\"count\": 10}"); }
            }
          else if (strcmp (message, "pages:page:fetch") == 0)
            {
              if (page == mute_page) return;
              long start = number (data, "start"), count = number (data, "count");
              if (page == bad_page) count = 3;
              char *json = malloc (64 + 48 * (size_t) count);
              char *end = json + sprintf (json, "{\"page\": %ld, \"start\": %ld, \"rows\": [", page, start);
              for (long i = 0; i < count; i++)
                end += sprintf (end, "%s[\"Row %ld\", \"%ld\"]", i ? ", " : "", start + i - inserted, (start + i - inserted) * 2);
              strcpy (end, "]}");
              host->trigger (host->context, "pages:page:rows", json);
              free (json);
            }
          else if (strcmp (message, "pages:page:activate") == 0)
            {
              char json[128];
              inserted += 2;
              sprintf (json, "{\"page\": %ld, \"changes\": [{\"insert\": [0, 2]}], \"count\": %d}", page, 1000 + inserted);
              host->trigger (host->context, "pages:page:changed", json);
            }
          else if (strcmp (message, "pages:page:action") == 0)
            {
              char json[160];
              if (strstr (data, "\"name\":\"\"") || strstr (data, "\"name\": \"\""))
                sprintf (json, "{\"page\": %ld, \"message\": \"A name is needed\"}", page);
              else
                sprintf (json, "{\"page\": %ld, \"message\": \"Signed\", \"values\": {\"name\": \"\"}}", page);
              host->trigger (host->context, "pages:page:message", json);
            }
        }

        static const trellis_plugin_info info = { TRELLIS_PLUGIN_ABI_VERSION, sizeof (trellis_plugin_info), NULL };

        __attribute__ ((visibility ("default"))) const trellis_plugin_info *
        trellis_plugin_entry (const trellis_host_api *api)
        {
          host = api;
          api->watch (api->context, "pages:page:*", on_page, NULL, NULL);
          return &info;
        }
        """#

    /// Writes the manifest (with the plugin's id replaced by `id`) and compiles the library
    /// into `<root>/<id>/`.
    /// `activation`: the manifest's `activation` (absent: at startup).
    /// `grantingRoutes`: a copy under another id gets a `contribute` grant for the routes.
    static func install(in root: URL, as id: String = "pages", activation: String? = nil, grantingRoutes: Bool = true) throws {
        let folder = root.appendingPathComponent(id)
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        var text = manifest.replacingOccurrences(of: #""id": "pages""#, with: #""id": "\#(id)""#)
        if let activation { text = text.replacingOccurrences(of: #""permissions": {}"#, with: #""permissions": {}, "activation": \#(activation)"#) }
        // A copy under another id serves the same routes, which are not under its own id.
        if id != "pages" && grantingRoutes { text = text.replacingOccurrences(of: #""permissions": {}"#, with: #""permissions": {"contribute": ["/pages/*rest"]}"#) }
        try Data(text.utf8).write(to: folder.appendingPathComponent("plugin.json"))
        let sourceFile = folder.appendingPathComponent("pages.c")
        try Data(source.utf8).write(to: sourceFile)
        let include = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
            .appendingPathComponent("../../../Sources/TrellisPluginABI/include").standardizedFileURL.path
        let cc = Process()
        cc.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        cc.arguments = ["cc", "-shared", "-fPIC", "-I", include, "-o", folder.appendingPathComponent("libpages.so").path, sourceFile.path]
        try cc.runOneAtATime()
        cc.waitUntilExit()
        guard cc.terminationStatus == 0 else { throw CocoaError(.fileWriteUnknown) }
    }
}
