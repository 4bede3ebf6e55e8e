import TrellisCore
import Foundation

/// Which plugins the user disabled, remembered across runs in
/// `$XDG_CONFIG_HOME/trellis/plugins.json` (default `~/.config/trellis/plugins.json`):
///
/// ```json
/// {"disabled": ["location"]}
/// ```
///
/// Plugins are enabled unless listed. A missing file means every plugin is enabled.
///
/// ```swift
/// let settings = PluginSettings()
/// try settings.load()
/// try settings.setEnabled("location", false)   // written at once
/// ```
public final class PluginSettings: Sendable {
    /// The settings file.
    public let url: URL
    private let disabled: LockedState<Set<String>>
    private let requiring = LockedState(false)
    /// This run's `--require-confinement`, over the remembered setting.
    private let requiringNow = LockedState(false)

    /// What the user approved of the plugins they installed: `plugin-approvals.json` beside the file.
    public var approvals: PluginApprovals {
        PluginApprovals(url: url.deletingLastPathComponent().appendingPathComponent("plugin-approvals.json"))
    }

    /// Whether plugins the app does not ship are refused where the kernel cannot confine them
    /// fully (``PluginConfinementReport/isComplete``), instead of loading with a warning: the
    /// file's `"requireConfinement": true`, or ``requireConfinementForThisRun()``.
    public var requiresConfinement: Bool {
        requiring.withLock { $0 } || requiringNow.withLock { $0 }
    }

    /// `--require-confinement`: requires it for this run, whatever the file says.
    public func requireConfinementForThisRun() {
        requiringNow.withLock { $0 = true }
    }


    /// Settings stored at `url` (nothing is read until `load()`).
    public init(url: URL = PluginSettings.defaultURL()) {
        self.url = url
        self.disabled = LockedState([])
    }

    /// `$XDG_CONFIG_HOME/trellis/plugins.json`, or `~/.config/trellis/plugins.json`.
    public static func defaultURL(environment: [String: String] = ProcessEnvironment.current) -> URL {
        PluginSearchPath.configHome(environment).appendingPathComponent("trellis/plugins.json")
    }

    /// Reads the file; a missing file leaves every plugin enabled.
    public func load() throws(PluginSettingsError) {
        guard FileManager.default.fileExists(atPath: url.path) else {
            disabled.withLock { $0 = [] }
            return
        }
        let json: JSONValue
        do {
            json = try JSONValue(jsonData: try Data(contentsOf: url), source: url.path)
        } catch {
            throw .unreadable(file: url.path, reason: "\(error)")
        }
        let list = json["disabled"] ?? .array([])
        guard json.objectValue != nil, let ids = list.arrayValue, ids.allSatisfy({ $0.stringValue != nil }) else {
            throw .unreadable(file: url.path, reason: "key \"disabled\" must be an array of plugin ids")
        }
        disabled.withLock { $0 = Set(ids.compactMap(\.stringValue)) }
        requiring.withLock { $0 = json["requireConfinement"]?.boolValue ?? false }
    }

    /// False when the user disabled plugin `id`.
    public func isEnabled(_ id: String) -> Bool {
        disabled.withLock { !$0.contains(id) }
    }

    /// The ids of the disabled plugins, sorted.
    public var disabledIDs: [String] {
        disabled.withLock { $0.sorted() }
    }

    /// Enables or disables plugin `id` and writes the file (creating its folder); when the file
    /// cannot be written, nothing changes.
    public func setEnabled(_ id: String, _ enabled: Bool) throws(PluginSettingsError) {
        // Written under the lock, so that concurrent calls leave the file as the last one says.
        try disabled.withLock { set throws(PluginSettingsError) in
            var changed = set
            if enabled { changed.remove(id) } else { changed.insert(id) }
            try write(disabled: changed, requiringConfinement: requiring.withLock { $0 })
            set = changed
        }
    }

    /// Remembers whether confinement is required (written at once); when the file cannot be
    /// written, nothing changes.
    public func setRequiresConfinement(_ required: Bool) throws(PluginSettingsError) {
        try disabled.withLock { set throws(PluginSettingsError) in
            try write(disabled: set, requiringConfinement: required)
            requiring.withLock { $0 = required }
        }
    }

    private func write(disabled: Set<String>, requiringConfinement: Bool) throws(PluginSettingsError) {
        var json: JSONValue = ["disabled": .array(disabled.sorted().map(JSONValue.string))]
        if requiringConfinement { json["requireConfinement"] = true }
        do {
            try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
            try json.jsonData().write(to: url, options: .atomic)
        } catch {
            throw .unwritable(file: url.path, reason: error.localizedDescription)
        }
    }
}

/// Why the plugin settings file could not be used.
public enum PluginSettingsError: Error, CustomStringConvertible, Equatable, Sendable {
    /// The file exists but cannot be read or is not in the expected form.
    case unreadable(file: String, reason: String)
    /// The file (or its folder) cannot be written.
    case unwritable(file: String, reason: String)

    public var description: String {
        switch self {
        case .unreadable(let file, let reason): return "\(file): cannot read plugin settings: \(reason)"
        case .unwritable(let file, let reason): return "\(file): cannot save plugin settings: \(reason)"
        }
    }
}
