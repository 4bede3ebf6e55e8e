import Foundation
import TrellisCore

/// Fresh folders for a test's files (a store, a plugins folder, a HOME), all inside one folder
/// of the test process, `trellis-tests-<pid>` in the system's temporary folder, which is
/// removed when the process exits: a test run leaves nothing behind, however many tests made
/// folders and whether or not each cleaned up after itself.
///
/// ```swift
/// let store = try TestFolder.make("store").appendingPathComponent("notes.sqlite")
/// ```
public enum TestFolder {
    /// A new, empty folder named `<name>-<UUID>` inside ``root``.
    public static func make(_ name: String = "test") throws -> URL {
        let folder = root.appendingPathComponent("\(name)-\(UUID().uuidString)", isDirectory: true)
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        return folder
    }

    /// The process's environment with `XDG_DATA_HOME`, `XDG_CACHE_HOME` and `XDG_CONFIG_HOME`
    /// set to new folders of the test's own (`data`, `cache`, `config` inside a ``make(_:)``
    /// folder named `name`): for a `PluginHost(environment:)`, so that the plugins of a test keep
    /// their data there and not in the user's, whichever way the tests were started.
    public static func environment(_ name: String = "environment") throws -> [String: String] {
        let folder = try make(name)
        var environment = ProcessEnvironment.current
        for (variable, subfolder) in [("XDG_DATA_HOME", "data"), ("XDG_CACHE_HOME", "cache"), ("XDG_CONFIG_HOME", "config")] {
            let path = folder.appendingPathComponent(subfolder, isDirectory: true)
            try FileManager.default.createDirectory(at: path, withIntermediateDirectories: true)
            environment[variable] = path.path
        }
        return environment
    }

    /// The folder of this process's test folders; created when first asked for, removed at
    /// the process's exit (a crashed test process leaves it, named by its pid).
    public static var root: URL {
        _ = removeAtExit
        return rootURL
    }

    private static var rootURL: URL {
        FileManager.default.temporaryDirectory.appendingPathComponent("trellis-tests-\(getpid())", isDirectory: true)
    }

    /// Creates the folder and registers its removal, once. The closure captures nothing (a C
    /// function pointer), so it finds the folder again from the pid.
    private static let removeAtExit: Void = {
        try? FileManager.default.createDirectory(at: rootURL, withIntermediateDirectories: true)
        atexit { try? FileManager.default.removeItem(at: TestFolder.rootURL) }
    }()
}
