import Foundation
import Testing

/// A plugin ships its own translations of its manifest's texts: `locale/<lang>/LC_MESSAGES/
/// trellis-plugin-<id>.mo` in its folder. Run as a user runs it: `trellis --headless --script`
/// under `LANGUAGE=ru`, with the plugin built from the header and its catalogue from a `.po`.
@Suite("Plugin translations")
struct PluginTranslationTests {
    @Test("a plugin page's title and its command's button come from the plugin's own catalogue")
    func ownCatalogue() throws {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("trellis-plugin-l10n-\(UUID().uuidString)")
        let folder = root.appendingPathComponent("greeter")
        let messages = folder.appendingPathComponent("locale/ru/LC_MESSAGES")
        try FileManager.default.createDirectory(at: messages, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: root) }
        try Data("""
            {"id": "greeter", "name": "Greeter", "version": "1", "abiVersion": 2, "library": "libgreeter.so", "permissions": {"contribute": ["/greeting"]},
             "routes": [{"pattern": "/greeting", "title": "Greeting", "content": "text", "public": true}],
             "commands": [{"id": "wave", "title": "Wave", "placement": "pageActions", "routes": ["/greeting"]}]}
            """.utf8).write(to: folder.appendingPathComponent("plugin.json"))
        let source = folder.appendingPathComponent("greeter.c")
        try Data(#"""
            #include <stdio.h>
            #include <stdlib.h>
            #include <string.h>
            #include "trellis_plugin.h"
            static const trellis_host_api *host;
            static void on_page (void *u, const char *m, const char *data) {
              (void) u;
              if (strcmp (m, "greeter:page:open") != 0) return;
              const char *at = strstr (data, "\"page\"");
              long page = at ? strtol (at + 7, 0, 10) : -1;
              char json[128];
              snprintf (json, sizeof json, "{\"page\": %ld, \"text\": \"Привет\"}", page);
              host->trigger (host->context, "greeter:page:show", json);
            }
            static const trellis_plugin_info info = { TRELLIS_PLUGIN_ABI_VERSION, sizeof (trellis_plugin_info), 0 };
            const trellis_plugin_info *trellis_plugin_entry (const trellis_host_api *h) {
              host = h;
              host->watch (host->context, "greeter:page:*", on_page, 0, 0);
              return &info;
            }
            """#.utf8).write(to: source)
        try CPlugin.compile(source, to: folder.appendingPathComponent("libgreeter.so"))
        let po = folder.appendingPathComponent("ru.po")
        try Data("""
            msgid ""
            msgstr "Content-Type: text/plain; charset=UTF-8\\n"

            msgid "Greeting"
            msgstr "Приветствие"

            msgid "Wave"
            msgstr "Помахать"
            """.utf8).write(to: po)
        let compiled = try CommandRunner.tool("msgfmt", ["--check", "-o", messages.appendingPathComponent("trellis-plugin-greeter.mo").path, po.path])
        #expect(compiled.status == 0, "\(compiled.stderr)")
        let script = root.appendingPathComponent("greet.script")
        try Data("navigate /greeting\nexpect Привет\nprint\n".utf8).write(to: script)

        let home = root.appendingPathComponent("home")
        let result = try CommandRunner.run(AppDriver.executable, ["--headless", "--script", script.path, "--plugin-dir", root.path],
                                           environment: ["LANGUAGE": "ru", "HOME": home.path,
                                                         "XDG_CONFIG_HOME": home.appendingPathComponent("config").path,
                                                         "XDG_DATA_HOME": home.appendingPathComponent("data").path])
        #expect(result.status == 0, "\(result.stdout)\n\(result.stderr)")
        #expect(result.stdout.contains("Приветствие"), "the page's title from the plugin's catalogue:\n\(result.stdout)")
        #expect(result.stdout.contains("(Помахать)"), "the command's button:\n\(result.stdout)")
    }
}
