import Foundation
import Testing

/// When the kernel refuses what a plugin tried, the author reads which grant of plugin.json
/// would allow it, where they look: the shell's log (here the headless run's standard error).
/// The plugin, C from the header alone, tries from its entry what its manifest does not grant.
/// Under ThreadSanitizer (whose runtime defines these C functions itself) the refusals are
/// not explained, so these tests run in the plain build (.ci/test).
@Suite("a refusal by the kernel names the grant to add")
struct PluginDenialTests {
    static func source(secret: String, readOnly: String, port: UInt16) -> String {
        """
        #include <arpa/inet.h>
        #include <errno.h>
        #include <fcntl.h>
        #include <netinet/in.h>
        #include <stdio.h>
        #include <string.h>
        #include <sys/socket.h>
        #include <unistd.h>
        #include "trellis_plugin.h"
        static const trellis_plugin_info info = { TRELLIS_PLUGIN_ABI_VERSION, sizeof (trellis_plugin_info), 0 };
        const trellis_plugin_info *trellis_plugin_entry (const trellis_host_api *host) {
          char line[256];
          FILE *secret = fopen ("\(secret)", "r");
          snprintf (line, sizeof line, "read: %s", secret ? "yes" : strerror (errno));
          host->log (host->context, TRELLIS_LOG_NOTICE, line);
          int written = open ("\(readOnly)/new.txt", O_WRONLY | O_CREAT, 0600);
          snprintf (line, sizeof line, "written: %s", written >= 0 ? "yes" : strerror (errno));
          host->log (host->context, TRELLIS_LOG_NOTICE, line);
          FILE *again = fopen ("\(secret)", "r");
          (void) again;
          int s = socket (AF_INET, SOCK_STREAM, 0);
          struct sockaddr_in address = { .sin_family = AF_INET, .sin_port = htons (\(port)) };
          address.sin_addr.s_addr = htonl (INADDR_LOOPBACK);
          int connected = s >= 0 ? connect (s, (struct sockaddr *) &address, sizeof address) : -1;
          snprintf (line, sizeof line, "connected: %s", connected == 0 ? "yes" : strerror (errno));
          host->log (host->context, TRELLIS_LOG_NOTICE, line);
          char *arguments[] = { "/bin/sh", "-c", "true", 0 };
          execv ("/bin/sh", arguments);
          snprintf (line, sizeof line, "ran: %s", strerror (errno));
          host->log (host->context, TRELLIS_LOG_NOTICE, line);
          return &info;
        }
        """
    }

    @Test("reading, writing, connecting and running outside the grants: each refusal says what to add, once; the plugin gets the error as before")
    func refusalsNameTheGrant() throws {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("trellis-denial-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: root) }
        let folder = root.appendingPathComponent("plugins/prober")
        let secret = root.appendingPathComponent("home/.ssh/id_rsa")
        let readOnly = root.appendingPathComponent("shared")
        for made in [folder, secret.deletingLastPathComponent(), readOnly] {
            try FileManager.default.createDirectory(at: made, withIntermediateDirectories: true)
        }
        try Data("-----BEGIN SECRET KEY-----".utf8).write(to: secret)
        let source = root.appendingPathComponent("prober.c")
        try Data(Self.source(secret: secret.path, readOnly: readOnly.path, port: 9).utf8).write(to: source)
        try CPlugin.compile(source, to: folder.appendingPathComponent("libprober.so"))
        try Data("""
            {"id": "prober", "name": "Prober", "version": "0.0.1", "abiVersion": 2, "library": "libprober.so",
             "permissions": {"files": {"\(readOnly.path)": "read"}}}
            """.utf8).write(to: folder.appendingPathComponent("plugin.json"))

        let result = try CommandRunner.run(AppDriver.executable, ["--headless", "--plugin-dir", root.appendingPathComponent("plugins").path, "/catalog"],
                                           environment: ["XDG_DATA_HOME": root.appendingPathComponent("data").path,
                                                         "XDG_CONFIG_HOME": root.appendingPathComponent("config").path,
                                                         "TRELLIS_LOG_LEVEL": "notice"])
        #expect(result.status == 0, "\(result.stderr)")
        let log = result.stderr
        // The plugin got the kernel's errors, unchanged.
        #expect(log.contains("read: Permission denied") && log.contains("written: Permission denied"), "\(log)")
        #expect(log.contains("connected: Permission denied") && log.contains("ran: Operation not permitted"), "\(log)")
        // Each refusal names what to add, once (the secret was opened twice).
        let read = #"the kernel refused opening for reading "\#(secret.path)" (Permission denied): no "files" grant covers it; to ask for it, add to plugin.json: "permissions": {"files": {"\#(secret.path)": "read"}}"#
        #expect(log.components(separatedBy: read).count == 2, "said once:\n\(log)")
        #expect(log.contains(#"the kernel refused opening for writing "\#(readOnly.path)/new.txt" (Permission denied): its "files" grants allow reading it, not writing; to ask for it, add to plugin.json: "permissions": {"files": {"\#(readOnly.path)/new.txt": "read-write"}}"#), "\(log)")
        #expect(log.contains(#"the kernel refused an Internet socket (Permission denied): the plugin has no "network" grant; to ask for it, add to plugin.json: "permissions": {"network": ["HOST:PORT"]}"#), "\(log)")
        #expect(log.contains(#"the kernel refused to run "/bin/sh" (Operation not permitted): no "exec" grant names it; to ask for it, add to plugin.json: "permissions": {"exec": ["/bin/sh"]}"#), "\(log)")
    }
}
