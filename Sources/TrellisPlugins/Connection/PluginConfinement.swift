import TrellisCore
import Foundation

/// What a plugin's process may reach, as the shell asks `trellis-plugin-host` to enforce it
/// (the `confinement` of the grants message; `Sources/trellis-plugin-host/confine.h` enforces
/// it): the folders it reads and writes, the programs it runs, its network, and the
/// environment it starts with.
///
/// Every plugin reads the system's libraries and its own folder (and the libraries it links),
/// and writes two folders of its own, both made here: its data folder,
/// `$XDG_DATA_HOME/trellis/plugin-data/ID` (its `HOME`), kept across runs, and a temporary
/// folder, `$XDG_CACHE_HOME/trellis/plugin-tmp/ID` (its `TMPDIR`), emptied at each start.
/// Everything else comes from its manifest's grants (``PluginResourceGrants``).
struct PluginConfinement: Sendable {
    /// The grants message's `confinement` value.
    let json: JSONValue
    /// Grants that were not applied, in words (a path covering Trellis's own data, say).
    let problems: [String]

    /// The environment variables every plugin gets from the shell's, when set: the program
    /// search path, the locale and time zone, the library path (where the Swift runtime may
    /// be found), and the sanitizers' options. Nothing else of the session (no `DISPLAY`, no
    /// D-Bus address, no tokens) unless the manifest grants it by name.
    static let inheritedEnvironment = ["PATH", "LANG", "LANGUAGE", "TZ", "LD_LIBRARY_PATH", "TRELLIS_LOG_LEVEL",
                                       "TSAN_OPTIONS", "ASAN_OPTIONS", "UBSAN_OPTIONS"]

    /// The confinement of plugin `manifest` whose library is `library`. `settings`: the
    /// plugin's setting values; `options`: the start options the app gives its services.
    init(manifest: PluginManifest, library: URL, settings: [String: JSONValue], options: [String: JSONValue],
         environment: [String: String] = ProcessEnvironment.current) {
        let grants = manifest.permissions.resources
        let data = Self.dataFolder(of: manifest.id, environment: environment)
        let temporary = Self.temporaryFolder(of: manifest.id, environment: environment)
        try? FileManager.default.removeItem(at: temporary)
        for folder in [data, temporary] {
            try? FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true,
                                                     attributes: [.posixPermissions: 0o700])
        }
        var readOnly: [String] = []
        var readWrite = [data.path, temporary.path]
        let folder = library.deletingLastPathComponent()
        if FileManager.default.fileExists(atPath: folder.appendingPathComponent(PluginManifest.fileName).path) {
            readOnly.append(folder.path)
        }
        var problems: [String] = []
        let protected = Self.protectedFolders(environment)
        for (entry, access) in grants.files.sorted(by: { $0.key < $1.key }) {
            for path in Self.resolve(entry, settings: settings, options: options, environment: environment) {
                if let own = protected.first(where: { Self.overlaps(path, $0) }) {
                    problems.append("files grant \(entry.debugDescription) (\(path)) is not applied: it would reach Trellis's own data in \(own)")
                    continue
                }
                if access == .read { readOnly.append(path) } else { readWrite.append(path) }
            }
        }
        let network: JSONValue = grants.network.isEmpty ? .null : [
            "any": .bool(grants.allowsAnyNetwork),
            "connectPorts": .array(grants.ports.map { .number(Double($0)) }),
        ]
        json = [
            "readOnly": .array(readOnly.map(JSONValue.string)),
            "readWrite": .array(readWrite.map(JSONValue.string)),
            "exec": .array(grants.exec.map(JSONValue.string)),
            "network": network,
            "environment": .array(grants.environment.map(JSONValue.string)),
            "dataFolder": .string(data.path),
            "temporaryFolder": .string(temporary.path),
        ]
        self.problems = problems
    }

    /// Where plugin `id` keeps its data: `$XDG_DATA_HOME/trellis/plugin-data/ID`.
    static func dataFolder(of id: String, environment: [String: String] = ProcessEnvironment.current) -> URL {
        PluginSearchPath.dataHome(environment).appendingPathComponent("trellis/plugin-data/\(id)", isDirectory: true)
    }

    /// Plugin `id`'s temporary folder: `$XDG_CACHE_HOME/trellis/plugin-tmp/ID`.
    static func temporaryFolder(of id: String, environment: [String: String] = ProcessEnvironment.current) -> URL {
        let cache = environment["XDG_CACHE_HOME"].flatMap { $0.hasPrefix("/") ? URL(fileURLWithPath: $0) : nil }
            ?? URL(fileURLWithPath: environment["HOME"] ?? NSHomeDirectory()).appendingPathComponent(".cache")
        return cache.appendingPathComponent("trellis/plugin-tmp/\(id)", isDirectory: true)
    }

    /// Trellis's own data and settings, which no grant may reach (the store, the approvals,
    /// the plugins' folders and settings): `$XDG_DATA_HOME/trellis` and `$XDG_CONFIG_HOME/trellis`.
    static func protectedFolders(_ environment: [String: String]) -> [String] {
        [PluginSearchPath.dataHome(environment).appendingPathComponent("trellis").path,
         PluginSearchPath.configHome(environment).appendingPathComponent("trellis").path]
    }

    /// Whether one of the paths is the other or inside it.
    static func overlaps(_ path: String, _ other: String) -> Bool {
        path == other || path.hasPrefix(other + "/") || other.hasPrefix(path + "/") || path == "/"
    }

    /// The absolute paths a `files` grant stands for now.
    private static func resolve(_ entry: String, settings: [String: JSONValue], options: [String: JSONValue],
                                environment: [String: String]) -> [String] {
        let paths: [String]
        if entry.hasPrefix("setting:") {
            paths = [settings[String(entry.dropFirst(8))]?.stringValue].compactMap { $0 }
        } else if entry.hasPrefix("option:") {
            let key = String(entry.dropFirst(7))
            paths = options.values.compactMap { $0[key]?.stringValue }
        } else if entry.hasPrefix("~/") {
            paths = [(environment["HOME"] ?? NSHomeDirectory()) + entry.dropFirst(1)]
        } else {
            paths = [entry]
        }
        return paths.filter { $0.hasPrefix("/") }.map { URL(fileURLWithPath: $0).standardizedFileURL.path }
    }

    /// The environment a plugin process starts with: ``inheritedEnvironment`` and the names
    /// `granted`, from `shell`'s; `HOME` and `TMPDIR` its own folders.
    static func environment(from shell: [String: String], granted: [String], confinement: JSONValue?) -> [String: String] {
        var result = shell.filter { key, _ in inheritedEnvironment.contains(key) || key.hasPrefix("LC_") || granted.contains(key) }
        if let home = confinement?["dataFolder"]?.stringValue { result["HOME"] = home }
        if let temporary = confinement?["temporaryFolder"]?.stringValue { result["TMPDIR"] = temporary }
        return result
    }
}
