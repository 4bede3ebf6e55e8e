import Foundation
import Testing

/// The "Writing a plugin" article's steps (TrellisPluginSDK.docc), taken from the article itself and run as a reader
/// would run them (their folder under a temporary HOME, `/path/to/trellis` this checkout,
/// `trellis` this build): the copied template builds and loads, in a process of its own.
@Suite("Docs: writing a plugin")
struct PluginWalkthroughTests {
    @Test("the article's plugin steps, run literally, build a plugin that trellis plugins lists as loaded and whose page prints")
    func walkthrough() throws {
        let article = try String(contentsOf: CommandRunner.packageRoot.appendingPathComponent(
            "Sources/TrellisPluginSDK/TrellisPluginSDK.docc/WritingAPlugin.md"), encoding: .utf8)
        let section = try #require(article.components(separatedBy: "### Copy the template").dropFirst().first)
        let block = try #require(section.components(separatedBy: "```sh\n").dropFirst().first?.components(separatedBy: "```").first)
        #expect(block.contains("cp -r plugins/Template"), "the steps start from the template:\n\(block)")

        let home = FileManager.default.temporaryDirectory.appendingPathComponent("trellis-readme-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: home.appendingPathComponent("dev"), withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: home) }
        let bin = home.appendingPathComponent("bin")
        try FileManager.default.createDirectory(at: bin, withIntermediateDirectories: true)
        try FileManager.default.createSymbolicLink(at: bin.appendingPathComponent("trellis"), withDestinationURL: AppDriver.executable)
        let script = block.replacingOccurrences(of: "/path/to/trellis", with: CommandRunner.packageRoot.path)
        let result = try CommandRunner.run(URL(fileURLWithPath: "/bin/bash"), ["-euo", "pipefail", "-c", script],
                                           environment: ["HOME": home.path, "PATH": "\(bin.path):\(ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin")"],
                                           directory: CommandRunner.packageRoot, timeout: 600)
        #expect(result.status == 0, "the steps failed:\n\(result.stdout)\n\(result.stderr)")
        let line = result.stdout.split(separator: "\n").first { $0.hasPrefix("greeter ") }
        #expect(line?.contains("loaded") == true, "trellis plugins printed:\n\(result.stdout)\n\(result.stderr)")
        #expect(line?.contains("command line") == true)
        // The last step prints the plugin's page, served by the plugin from its process.
        #expect(result.stdout.contains("Hello from the Greeter plugin"), "the page was not printed:\n\(result.stdout)\n\(result.stderr)")
    }
}

/// `trellis plugins` with a plugin that aborts: listing runs none of its code; `--check` loads it
/// in a process of its own, survives, and says how it ended.
@Suite("trellis plugins and a crashing plugin")
struct PluginsListingCrashTests {
    @Test("listing runs no plugin code: an entry that would leave a file and abort leaves nothing; the plugin is listed as found")
    func listingRunsNoCode() throws {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("trellis-listing-\(UUID().uuidString)")
        let folder = root.appendingPathComponent("marking")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: root) }
        // Where the entry leaves its marker: a folder granted to it (it cannot write elsewhere).
        let signals = root.appendingPathComponent("signals")
        try FileManager.default.createDirectory(at: signals, withIntermediateDirectories: true)
        let marker = signals.appendingPathComponent("the-entry-ran")
        try Data("""
            {"id": "marking", "name": "Marking", "version": "0.0.1", "abiVersion": 2, "library": "libmarking.so",
             "permissions": {"watch": ["network:*"], "files": {"\(signals.path)": "read-write"}}}
            """.utf8).write(to: folder.appendingPathComponent("plugin.json"))
        let source = folder.appendingPathComponent("marking.c")
        try Data("""
            #include <stdio.h>
            #include <stdlib.h>
            #include "trellis_plugin.h"
            const trellis_plugin_info *trellis_plugin_entry (const trellis_host_api *host) {
              (void) host;
              fclose (fopen ("\(marker.path)", "w"));
              printf ("marking plugin on stdout\\n");
              fflush (stdout);
              abort ();
            }
            """.utf8).write(to: source)
        try CPlugin.compile(source, to: folder.appendingPathComponent("libmarking.so"))

        let result = try CommandRunner.run(AppDriver.executable, ["plugins", "--plugin-dir", root.path])
        #expect(result.status == 0, "\(result.stderr)")
        let lines = result.stdout.split(separator: "\n").map(String.init)
        let index = try #require(lines.firstIndex { $0.hasPrefix("marking ") }, "\(result.stdout)")
        #expect(lines[index].contains("found") && lines[index].contains("command line"), "\(lines[index])")
        #expect(lines[index...].contains("    permissions: trigger: marking:* · watch: marking:*, network:* · navigate: public routes · request: marking:*"
                                         + " · files: \(signals.path) (read-write)"), "\(result.stdout)")
        #expect(lines[index...].contains { $0.hasPrefix("    confined by: ") }, "\(result.stdout)")
        #expect(!FileManager.default.fileExists(atPath: marker.path), "listing ran the plugin's entry")

        let checked = try CommandRunner.run(AppDriver.executable, ["plugins", "--check", "--plugin-dir", root.path])
        #expect(checked.stdout.contains("killed by signal 6 (SIGABRT)"), "\(checked.stdout)")
        // What the plugin printed is in its report, not loose in the listing.
        #expect(!checked.stdout.split(separator: "\n").contains("marking plugin on stdout"), "\(checked.stdout)")
        #expect(checked.stdout.contains("marking plugin on stdout"), "\(checked.stdout)")
        #expect(FileManager.default.fileExists(atPath: marker.path), "--check ran the plugin's entry")
    }

    @Test("--check: a plugin whose service start aborts is listed as failed with the signal; the command exits 1, naming it")
    func abortingPlugin() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("trellis-aborting-\(UUID().uuidString)/aborting")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder.deletingLastPathComponent()) }
        try Data("""
            {"id": "aborting", "name": "Aborting", "version": "0.0.1", "abiVersion": 2,
             "library": "libaborting.so", "services": ["aborting"], "autostart": {"aborting": null}}
            """.utf8).write(to: folder.appendingPathComponent("plugin.json"))
        let source = folder.appendingPathComponent("aborting.c")
        try Data("""
            #include <stdlib.h>
            #include "trellis_plugin.h"
            static int32_t start (void *d, const char *o, char *e, size_t n) { (void) d; (void) o; (void) e; (void) n; abort (); }
            static void stop (void *d, const char *o) { (void) d; (void) o; }
            static const trellis_plugin_info info = { TRELLIS_PLUGIN_ABI_VERSION, sizeof (trellis_plugin_info), 0 };
            const trellis_plugin_info *trellis_plugin_entry (const trellis_host_api *host) {
              trellis_service_definition service = { sizeof service, "aborting", 0, start, stop, 0 };
              host->register_service (host->context, &service);
              return &info;
            }
            """.utf8).write(to: source)
        try CPlugin.compile(source, to: folder.appendingPathComponent("libaborting.so"))

        let result = try CommandRunner.run(AppDriver.executable, ["plugins", "--check", "--plugin-dir", folder.deletingLastPathComponent().path])
        #expect(result.status == 1, "\(result.stderr)")
        #expect(result.stderr.contains("plugins failed: aborting"), "\(result.stderr)")
        let lines = result.stdout.split(separator: "\n").map(String.init)
        let index = try #require(lines.firstIndex { $0.hasPrefix("aborting ") }, "\(result.stdout)")
        #expect(lines[index].contains("failed"), "\(lines[index])")
        #expect(lines[index...].joined(separator: "\n").contains("killed by signal 6 (SIGABRT)"), "\(result.stdout)")
        #expect(lines.contains { $0.hasPrefix("c-hello ") && $0.contains("loaded") }, "\(result.stdout)")
    }
}
