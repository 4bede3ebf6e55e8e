import TrellisCore
import Foundation
import Logging

/// The values of the plugins' own settings (their manifests' `"settings"`), one file per
/// plugin in `plugin-settings/` beside the plugins' settings file
/// (`$XDG_CONFIG_HOME/trellis/plugin-settings/<plugin id>.json`), holding what the user changed:
///
/// ```json
/// {"interval": 10, "units": "imperial"}
/// ```
///
/// A value the manifest no longer declares, or that no longer fits its setting (a new range),
/// is ignored with a warning naming the file and the key, and the default stands. A file that
/// is not a JSON object is set aside as `<id>.json.broken` at the next change (nothing the user
/// wrote is lost) and the defaults stand meanwhile.
public final class PluginSettingValues: Sendable {
    /// The folder of the files.
    public let folder: URL
    private let logger: Logger
    private let cache = LockedState<[String: [String: JSONValue]]>([:])
    private let warned = LockedState<Set<String>>([])

    public init(folder: URL, logger: Logger = Logger(trellis: "trellis.plugins")) {
        self.folder = folder
        self.logger = logger
    }

    /// The file of plugin `id`.
    public func url(of id: String) -> URL { folder.appendingPathComponent("\(id).json") }

    /// Every setting of `manifest` with its value: the user's where valid, the default otherwise.
    public func values(of manifest: PluginManifest) -> [String: JSONValue] {
        let stored = storedValues(of: manifest.id)
        var values: [String: JSONValue] = [:]
        for setting in manifest.settings {
            values[setting.key] = setting.defaultValue
            guard let value = stored[setting.key] else { continue }
            switch setting.check(value) {
            case .success: values[setting.key] = value
            case .failure(let error): warnOnce(manifest.id, "\(url(of: manifest.id).path): \(error); the default stands")
            }
        }
        for key in stored.keys.sorted() where !manifest.settings.contains(where: { $0.key == key }) {
            warnOnce(manifest.id, "\(url(of: manifest.id).path): key \"\(key)\" is no setting of plugin \"\(manifest.id)\"; ignored")
        }
        return values
    }

    /// Stores `value` for setting `key` of `manifest`, after checking it against the manifest.
    /// Returns every value afterwards.
    @discardableResult
    public func set(_ key: String, _ value: JSONValue, of manifest: PluginManifest) throws(SettingValueError) -> [String: JSONValue] {
        guard let setting = manifest.settings.first(where: { $0.key == key }) else {
            throw SettingValueError(key: key, reason: "plugin \"\(manifest.id)\" has no such setting")
        }
        if case .failure(let error) = setting.check(value) { throw error }
        var stored = storedValues(of: manifest.id)
        stored[key] = value
        let file = url(of: manifest.id)
        do {
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            if let data = try? Data(contentsOf: file), (try? JSONValue(jsonData: data))?.objectValue == nil {
                let broken = file.appendingPathExtension("broken")
                try? FileManager.default.removeItem(at: broken)
                try FileManager.default.moveItem(at: file, to: broken)
                logger.warning("\(file.path) was not a JSON object: kept as \(broken.lastPathComponent)")
            }
            try JSONValue.object(stored).jsonData().write(to: file, options: .atomic)
        } catch {
            throw SettingValueError(key: key, reason: "could not be saved to \(file.path): \(error.localizedDescription)")
        }
        cache.withLock { $0[manifest.id] = stored }
        return values(of: manifest)
    }

    /// What the file of plugin `id` holds (read once, then kept).
    private func storedValues(of id: String) -> [String: JSONValue] {
        if let cached = cache.withLock({ $0[id] }) { return cached }
        let file = url(of: id)
        var stored: [String: JSONValue] = [:]
        if let data = try? Data(contentsOf: file) {
            if let object = (try? JSONValue(jsonData: data, source: file.path))?.objectValue {
                stored = object
            } else {
                warnOnce(id, "\(file.path) is not a JSON object of setting values; the defaults stand until a setting changes")
            }
        }
        cache.withLock { $0[id] = stored }
        return stored
    }

    private func warnOnce(_ id: String, _ text: String) {
        guard warned.withLock({ $0.insert(text).inserted }) else { return }
        logger.warning("plugin \"\(id)\": \(text)")
    }
}
