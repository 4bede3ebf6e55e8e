import Foundation
import Testing

/// The "Your first plugin" article's steps (TrellisPluginSDK.docc), taken from the article itself
/// and pasted into one shell session per section as a reader would: from this checkout (`$PWD`
/// in the steps), `/path/to/trellis` this checkout, `~` a temporary HOME. The README's steps are
/// the article's first lines, so this runs them too.
@Suite("Docs: your first plugin")
struct PluginWalkthroughTests {
    static let article = "Sources/TrellisPluginSDK/TrellisPluginSDK.docc/YourFirstPlugin.md"

    /// The `sh` blocks of the section `heading` of `file`, in order, as one script.
    static func steps(_ heading: String, of file: String = article) throws -> String {
        let text = try String(contentsOf: CommandRunner.packageRoot.appendingPathComponent(file), encoding: .utf8)
        // The section: from its heading to the next heading of any level (a line starting with
        // "#" and a space, outside code blocks).
        var lines = text.components(separatedBy: "\n").drop { $0 != heading }.dropFirst()
        var inCode = false
        lines = lines.prefix { line in
            if line.hasPrefix("```") { inCode.toggle() }
            return inCode || !(line.hasPrefix("#") && line.drop { $0 == "#" }.hasPrefix(" "))
        }
        try #require(!lines.isEmpty, "no section \(heading) in \(file)")
        let section = lines.joined(separator: "\n")
        let blocks = section.components(separatedBy: "```sh\n").dropFirst().compactMap { $0.components(separatedBy: "```").first }
        try #require(!blocks.isEmpty, "no sh block in \(heading) of \(file)")
        return blocks.joined(separator: "\n")
    }

    /// Runs `script` in bash from this checkout with a fresh HOME; returns its output.
    /// `afterwards` looks at the HOME before it is removed.
    static func run(_ script: String, afterwards: (_ home: URL) throws -> Void = { _ in }) throws -> CommandResult {
        let home = FileManager.default.temporaryDirectory.appendingPathComponent("trellis-readme-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: home, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: home) }
        // The steps put `$PWD/.build/release` on the PATH, where bash .ci/launch builds trellis:
        // the trellis under test (this test run's build) stands there.
        let literal = script.replacingOccurrences(of: "/path/to/trellis", with: CommandRunner.packageRoot.path)
            .replacingOccurrences(of: "$PWD/.build/release", with: AppDriver.executable.deletingLastPathComponent().path)
        let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"
        let result = try CommandRunner.run(URL(fileURLWithPath: "/bin/bash"), ["-euo", "pipefail", "-c", literal],
                                           environment: ["HOME": home.path, "PATH": path, "XDG_DATA_HOME": home.path + "/.local/share",
                                                         "XDG_CONFIG_HOME": home.path + "/.config", "XDG_CACHE_HOME": home.path + "/.cache"],
                                           directory: CommandRunner.packageRoot, timeout: 900)
        try afterwards(home)
        return result
    }

    @Test("In Swift, run literally: the generated plugin builds, loads, prints its page, passes its test, and once installed and approved loads from the user's folder")
    func swiftPlugin() throws {
        let script = try Self.steps("### In Swift")
        #expect(script.hasPrefix("export PATH=\"$PWD/.build/release:$PATH\""), "the steps start where bash .ci/launch built trellis:\n\(script)")
        let launch = try String(contentsOf: CommandRunner.packageRoot.appendingPathComponent(".ci/launch"), encoding: .utf8)
        #expect(launch.contains("swift build -c release\n"), "bash .ci/launch no longer builds into .build/release, where the steps look")
        #expect(script.contains("trellis plugin new Greeter"), "the steps start from the generator:\n\(script)")
        let result = try Self.run(script) { home in
            // The plugin's package resolved no package but the SDK: nothing fetched, nothing checked out.
            let resolved = home.appendingPathComponent("dev/Greeter/Package.resolved")
            #expect(!FileManager.default.fileExists(atPath: resolved.path)
                    || !((try? String(contentsOf: resolved, encoding: .utf8)) ?? "").contains("\"location\" : \"http"))
            #expect(FileManager.default.fileExists(atPath: home.appendingPathComponent("dev/Greeter/.build").path), "the steps built nothing in ~/dev/Greeter")
        }
        #expect(result.status == 0, "the steps failed:\n\(result.stdout.suffix(4000))\n\(result.stderr.suffix(4000))")
        let lines = result.stdout.split(separator: "\n").filter { $0.hasPrefix("greeter ") }
        #expect(lines.first?.contains("loaded") == true && lines.first?.contains("command line") == true, "\(result.stdout)")
        #expect(lines.last?.contains("loaded") == true && lines.last?.contains("user") == true, "installed:\n\(result.stdout)")
        #expect(result.stdout.contains("Greeter  (Add)"), "the page was not printed:\n\(result.stdout)")
    }

    @Test("In C, run literally: the plugin builds with the article's cc line outside the tree, and make check drives its page")
    func cPlugin() throws {
        let script = try Self.steps("### In C")
        #expect(script.contains("trellis plugin new Counter --c") && script.contains("cc "), "\(script)")
        let result = try Self.run(script)
        #expect(result.status == 0, "the steps failed:\n\(result.stdout.suffix(4000))\n\(result.stderr.suffix(4000))")
        #expect(result.stdout.contains("Counter: 2 items"), "make check printed:\n\(result.stdout)")
    }

    @Test("the README's first plugin steps are the article's first lines, so the test above runs them")
    func readmeSteps() throws {
        let readme = try Self.steps("## Your first plugin or app", of: "README.md")
        let article = try Self.steps("### In Swift")
        let plugin = readme.split(separator: "\n").filter { $0.contains("plugin") || $0.contains("PATH") }
        #expect(!plugin.isEmpty)
        for line in plugin { #expect(article.contains(line), "the README's \(line) is not the article's") }
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
