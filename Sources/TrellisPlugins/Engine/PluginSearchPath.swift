import TrellisCore
import Foundation

/// One folder the plugin engine looks in, and where it came from.
///
/// A search path holds plugin folders (`<path>/<Name>/plugin.json`), or is itself one plugin
/// folder (`<path>/plugin.json`), which is handy for `--plugin-dir` during plugin development.
public struct PluginSearchPath: Sendable, Hashable, CustomStringConvertible {
    /// Where a search path comes from; shown in reports.
    public enum Origin: String, Sendable, Hashable {
        /// The source tree's own `plugins/` (a SwiftPM build run from the tree).
        case build
        /// `$XDG_DATA_HOME/trellis/plugins` (default `~/.local/share/trellis/plugins`).
        case user
        /// `<prefix>/lib/trellis/plugins`, where the executable is `<prefix>/bin/<name>`.
        case system
        /// A `--plugin-dir DIR` given on the command line.
        case commandLine = "command line"
    }

    /// The folder.
    public var directory: URL
    /// Where it comes from.
    public var origin: Origin
    /// Folders searched for a plugin's library after the plugin's own folder (a SwiftPM build
    /// puts the libraries of the tree's plugins next to the executable, not next to their
    /// manifests).
    public var libraryFallbacks: [URL]

    /// A search path.
    public init(directory: URL, origin: Origin, libraryFallbacks: [URL] = []) {
        self.directory = directory.standardizedFileURL
        self.origin = origin
        self.libraryFallbacks = libraryFallbacks.map(\.standardizedFileURL)
    }

    public var description: String { "\(directory.path) (\(origin.rawValue))" }

    /// The standard search paths, in order of precedence (a plugin id found twice is taken from
    /// the first path and the later copy is reported as a duplicate):
    /// 1. the build's own plugins: the nearest ancestor of the executable's folder that holds
    ///    both `Package.swift` and `plugins/` (libraries are then also looked up in the
    ///    executable's folder);
    /// 2. `$XDG_DATA_HOME/trellis/plugins`;
    /// 3. `<prefix>/lib/trellis/plugins`;
    /// 4. every `pluginDirectories` entry, in the order given.
    ///
    /// ```swift
    /// let paths = PluginSearchPath.standard(pluginDirectories: ["/home/me/dev/MyPlugin"])
    /// ```
    public static func standard(pluginDirectories: [String] = [],
                                environment: [String: String] = ProcessEnvironment.current,
                                executable: URL = RunningExecutable.url) -> [PluginSearchPath] {
        let binDirectory = executable.deletingLastPathComponent()
        var paths: [PluginSearchPath] = []
        if let tree = sourceTree(above: binDirectory) {
            paths.append(PluginSearchPath(directory: tree.appendingPathComponent("plugins"), origin: .build,
                                          libraryFallbacks: [binDirectory]))
        }
        paths.append(PluginSearchPath(directory: dataHome(environment).appendingPathComponent("trellis/plugins"),
                                      origin: .user))
        paths.append(PluginSearchPath(
            directory: binDirectory.deletingLastPathComponent().appendingPathComponent("lib/trellis/plugins"),
            origin: .system))
        for directory in pluginDirectories {
            paths.append(PluginSearchPath(directory: URL(fileURLWithPath: directory), origin: .commandLine))
        }
        var seen: Set<String> = []
        return paths.filter { seen.insert($0.directory.path).inserted }
    }

    /// The nearest ancestor of `directory` (itself included) holding `Package.swift` and `plugins/`.
    static func sourceTree(above directory: URL) -> URL? {
        let files = FileManager.default
        var candidate = directory.standardizedFileURL
        while true {
            var isDirectory: ObjCBool = false
            if files.fileExists(atPath: candidate.appendingPathComponent("Package.swift").path),
               files.fileExists(atPath: candidate.appendingPathComponent("plugins").path, isDirectory: &isDirectory),
               isDirectory.boolValue {
                return candidate
            }
            if candidate.path == "/" { return nil }
            candidate = candidate.deletingLastPathComponent()
        }
    }

    /// `$XDG_DATA_HOME`, or `$HOME/.local/share` as the XDG base directory spec says.
    static func dataHome(_ environment: [String: String]) -> URL {
        if let dir = environment["XDG_DATA_HOME"], dir.hasPrefix("/") { return URL(fileURLWithPath: dir) }
        return home(environment).appendingPathComponent(".local/share")
    }

    /// `$XDG_CONFIG_HOME`, or `$HOME/.config`.
    static func configHome(_ environment: [String: String]) -> URL {
        if let dir = environment["XDG_CONFIG_HOME"], dir.hasPrefix("/") { return URL(fileURLWithPath: dir) }
        return home(environment).appendingPathComponent(".config")
    }

    private static func home(_ environment: [String: String]) -> URL {
        if let home = environment["HOME"], !home.isEmpty { return URL(fileURLWithPath: home) }
        return FileManager.default.homeDirectoryForCurrentUser
    }
}
