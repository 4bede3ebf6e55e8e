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

    /// A discovery over `searchPaths`.
    public init(searchPaths: [PluginSearchPath], security: PluginFileSecurity = PluginFileSecurity()) {
        self.searchPaths = searchPaths
        self.security = security
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
    func pluginFolders(in directory: URL) -> [URL] {
        let files = FileManager.default
        if files.fileExists(atPath: directory.appendingPathComponent(PluginManifest.fileName).path) {
            return [directory]
        }
        guard let names = try? files.contentsOfDirectory(atPath: directory.path) else { return [] }
        return names.sorted().map { directory.appendingPathComponent($0) }.filter {
            files.fileExists(atPath: $0.appendingPathComponent(PluginManifest.fileName).path)
        }
    }

    /// Where a plugin's library may be, in order: its folder; the folder's `.build/release` and
    /// `.build/debug` (a plugin developed as its own SwiftPM package, built with `swift build`);
    /// then the search path's fallbacks.
    static func libraryFolders(of folder: URL, in path: PluginSearchPath) -> [URL] {
        [folder, folder.appendingPathComponent(".build/release"), folder.appendingPathComponent(".build/debug")]
            + path.libraryFallbacks
    }

    /// Everything that can be checked about one plugin folder without loading its library.
    func inspect(_ folder: URL, in path: PluginSearchPath) -> PluginReport {
        var report = PluginReport(id: folder.lastPathComponent, manifest: nil, directory: folder,
                                  origin: path.origin, state: .found)
        if let problem = security.problem(at: folder) {
            report.state = .failed(.insecure(problem: problem))
            return report
        }
        let manifest: PluginManifest
        do {
            manifest = try PluginManifest.load(from: folder.appendingPathComponent(PluginManifest.fileName))
        } catch {
            report.state = .failed(.manifest(error))
            return report
        }
        report.id = manifest.id
        report.manifest = manifest
        if manifest.abiVersion > Self.hostABIVersion {
            report.state = .failed(.abiTooNew(plugin: manifest.abiVersion, host: Self.hostABIVersion))
            return report
        }
        if manifest.abiVersion < Self.oldestABIVersion {
            report.state = .failed(.abiTooOld(plugin: manifest.abiVersion, oldest: Self.oldestABIVersion))
            return report
        }
        let candidates = Self.libraryFolders(of: folder, in: path).map { $0.appendingPathComponent(manifest.library) }
        guard let library = candidates.first(where: { FileManager.default.fileExists(atPath: $0.path) }) else {
            report.state = .failed(.libraryMissing(library: manifest.library,
                                                   searched: candidates.map { $0.deletingLastPathComponent().path }))
            return report
        }
        report.library = library
        let resolved = library.resolvingSymlinksInPath()
        if let problem = security.firstProblem(among: [resolved.deletingLastPathComponent(), resolved]) {
            report.state = .failed(.insecure(problem: problem))
        }
        return report
    }
}
