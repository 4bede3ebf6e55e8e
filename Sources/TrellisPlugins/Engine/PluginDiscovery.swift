import TrellisCore
import Foundation
import TrellisPluginABI

/// Finds plugins in the search paths without loading any code: reads each manifest, checks
/// its ABI version, locates the library and checks ownership and permissions. The result is
/// one report per plugin folder, `found` or `failed` with the reason.
///
/// ```swift
/// let reports = PluginDiscovery(searchPaths: PluginSearchPath.standard()).discover()
/// ```
public struct PluginDiscovery: Sendable {
    /// The host's ABI version (`TRELLIS_PLUGIN_ABI_VERSION`).
    public static let hostABIVersion = Int(TRELLIS_PLUGIN_ABI_VERSION)
    /// The oldest plugin ABI version the host loads (`TRELLIS_PLUGIN_ABI_OLDEST`).
    public static let oldestABIVersion = Int(TRELLIS_PLUGIN_ABI_OLDEST)

    /// Where to look, in order of precedence.
    public var searchPaths: [PluginSearchPath]
    /// The ownership and permission rules for plugin folders and libraries.
    public var security: PluginFileSecurity

    /// The app's routes (not the plugins'), whose first segments no plugin may take as its id.
    var appRoutes: @Sendable () -> [RoutePattern] = { [] }

    /// A discovery over `searchPaths`.
    public init(searchPaths: [PluginSearchPath], security: PluginFileSecurity = PluginFileSecurity()) {
        self.searchPaths = searchPaths
        self.security = security
    }

    /// A discovery that also refuses plugin ids taken by the app's routes in `routes` (those
    /// no plugin registered), read at each discovery.
    init(searchPaths: [PluginSearchPath], security: PluginFileSecurity, routes: RouteTable<RouteTarget>?) {
        self.init(searchPaths: searchPaths, security: security)
        appRoutes = { routes?.entries.filter { !$0.owner.hasPrefix("plugin:") }.map(\.pattern) ?? [] }
    }

    /// One report per plugin folder found, in search-path order then by folder name. The first
    /// usable folder with a given id wins; a later usable one is reported as a duplicate.
    public func discover() -> [PluginReport] {
        var reports: [PluginReport] = []
        var firstFolder: [String: URL] = [:]
        for path in searchPaths {
            for folder in pluginFolders(in: path.directory) {
                var report = inspect(folder, in: path)
                if report.state == .found {
                    if let first = firstFolder[report.id] {
                        report.state = .failed(.duplicateID(firstFoundAt: first.path))
                    } else {
                        firstFolder[report.id] = folder
                    }
                }
                reports.append(report)
            }
        }
        return reports
    }

    /// The plugin folders of a search path: the path itself when it holds a manifest,
    /// otherwise its subfolders that hold one, sorted by name. A missing path has none.
    ///
    /// Paths are probed as strings: a `URL` built per file costs more than the look-up
    /// itself (about 10 µs per `appendingPathComponent`), and a start with many plugins
    /// installed makes hundreds.
    func pluginFolders(in directory: URL) -> [URL] {
        let files = FileManager.default
        let base = directory.path
        if files.fileExists(atPath: Self.path(base, PluginManifest.fileName)) {
            return [directory]
        }
        guard let names = try? files.contentsOfDirectory(atPath: base) else { return [] }
        return names.sorted().filter { files.fileExists(atPath: Self.path(base, $0, PluginManifest.fileName)) }
            .map { URL(fileURLWithPath: Self.path(base, $0), isDirectory: true) }
    }

    /// Where a plugin's library may be, in order: its folder; the folder's `.build/release` and
    /// `.build/debug` (a plugin developed as its own SwiftPM package, built with `swift build`);
    /// then the search path's fallbacks.
    static func libraryFolders(of folder: String, in path: PluginSearchPath) -> [String] {
        [folder, Self.path(folder, ".build/release"), Self.path(folder, ".build/debug")]
            + path.libraryFallbacks.map(\.path)
    }

    /// The folder of `folders` whose `library` is used: the first that has it, except that of
    /// `.build/release` and `.build/debug` the newer build wins (a plugin built in one after the
    /// other is loaded as last built, not as first found).
    static func libraryFolder(of library: String, among folders: [String]) -> String? {
        func modified(_ folder: String) -> Int64? {
            FileStamp(path: path(folder, library))?.modified
        }
        guard let first = folders.first(where: { modified($0) != nil }) else { return nil }
        let builds = folders.filter { $0.hasSuffix("/.build/release") || $0.hasSuffix("/.build/debug") }
        guard builds.contains(first) else { return first }
        return builds.compactMap { folder in modified(folder).map { (folder, $0) } }.max { $0.1 < $1.1 }?.0 ?? first
    }

    /// `parts` joined into a path.
    static func path(_ parts: String...) -> String {
        parts.joined(separator: "/")
    }

    /// Everything that can be checked about one plugin folder without loading its library.
    func inspect(_ folder: URL, in path: PluginSearchPath) -> PluginReport {
        var report = PluginReport(id: folder.lastPathComponent, manifest: nil, directory: folder,
                                  origin: path.origin, state: .found)
        if let problem = security.problem(at: folder) {
            report.state = .failed(.insecure(problem: problem))
            return report
        }
        let folderPath = folder.path
        let manifestURL = URL(fileURLWithPath: Self.path(folderPath, PluginManifest.fileName), isDirectory: false)
        // Checked before it is opened: a FIFO would block the reader, a device never end.
        if let problem = security.fileProblem(at: manifestURL) {
            report.state = .failed(.insecure(problem: problem))
            return report
        }
        let manifest: PluginManifest
        do {
            manifest = try PluginManifest.load(from: manifestURL)
        } catch {
            report.state = .failed(.manifest(error))
            // Named as its author named it, when the manifest says so (the folder's name otherwise).
            let declared = PluginManifest.declared(at: manifestURL)
            if let id = declared.id { report.id = id }
            report.declaredVersion = declared.version
            return report
        }
        report.id = manifest.id
        report.manifest = manifest
        if let reason = PluginReservedNames.problem(withID: manifest.id, appRoutes: appRoutes()) {
            report.state = .failed(.reservedID(id: manifest.id, reason: reason))
            return report
        }
        if manifest.abiVersion > Self.hostABIVersion {
            report.state = .failed(.abiTooNew(plugin: manifest.abiVersion, host: Self.hostABIVersion))
            return report
        }
        if manifest.abiVersion < Self.oldestABIVersion {
            report.state = .failed(.abiTooOld(plugin: manifest.abiVersion, oldest: Self.oldestABIVersion))
            return report
        }
        // The manifest's library is a file name (no "/"), looked for in each folder in turn.
        let folders = Self.libraryFolders(of: folderPath, in: path)
        guard let found = Self.libraryFolder(of: manifest.library, among: folders) else {
            report.state = .failed(.libraryMissing(library: manifest.library, searched: folders))
            return report
        }
        let library = Self.path(found, manifest.library)
        report.library = URL(fileURLWithPath: library, isDirectory: false)
        // The file that will be opened, and the folders above it, after symbolic links.
        if let problem = security.fileProblem(at: URL(fileURLWithPath: library, isDirectory: false)) {
            report.state = .failed(.insecure(problem: problem))
        }
        return report
    }

    /// `path` with every symbolic link resolved (`realpath`), or `path` itself when that fails.
    static func resolvingSymlinks(_ path: String) -> String {
        guard let resolved = realpath(path, nil) else { return path }
        defer { free(resolved) }
        return String(cString: resolved)
    }
}
