import Foundation
import TrellisCore
import TrellisStore
import TrellisSync

/// Syncs the notes with a server when one is configured (`--server URL`, or `sync.server` in
/// `$XDG_CONFIG_HOME/trellis/settings.json`); without one the notes stay local.
///
/// A pass runs at start, after every save, every 30 s, and when the bus says
/// `sync:requested` (a notification with `content-available: 1`); each ends with
/// `sync:finished`, shown in the status area.
@MainActor
public enum DemoSync {
    public enum Failure: Error, CustomStringConvertible {
        case settings(String)
        public var description: String {
            switch self { case .settings(let reason): return reason }
        }
    }

    /// The settings file's path.
    public static func settingsURL(environment: [String: String] = ProcessInfo.processInfo.environment) -> URL {
        let config = environment["XDG_CONFIG_HOME"].flatMap { $0.isEmpty ? nil : URL(fileURLWithPath: $0) }
            ?? FileManager.default.homeDirectoryForCurrentUser.appendingPathComponent(".config")
        return config.appendingPathComponent("trellis/settings.json")
    }

    /// Reads the sync settings (a missing file or key means none) and applies `server`.
    static func settings(server: URL?, file: URL = settingsURL()) throws -> SyncSettings {
        var settings = SyncSettings()
        if let data = try? Data(contentsOf: file) {
            do {
                let json = try JSONValue(jsonData: data, source: file.path)
                if let sync = json["sync"] { settings = try SyncSettings(json: sync, source: "\(file.path): sync") }
            } catch {
                throw Failure.settings(String(describing: error))
            }
        }
        if let server { settings.server = server }
        return settings
    }

    /// Starts syncing when a server is configured; returns the sync engine, or `nil` when the
    /// notes stay local. Throws when the settings or the server URL are refused.
    @discardableResult
    public static func start(on shell: Shell, store: PersistentStore, server: URL?,
                             settingsFile: URL = settingsURL()) throws -> EntitySync? {
        let settings = try settings(server: server, file: settingsFile)
        guard let url = settings.server else { return nil }
        let sync: EntitySync
        do {
            sync = try EntitySync(store: store, bus: shell.bus, server: url, settings: settings)
        } catch {
            throw Failure.settings(String(describing: error))
        }
        shell.provide(sync)
        sync.start()
        shell.bus.watchOnMainActor("sync:requested", owner: sync) { sync, _ in
            Task { _ = try? await sync.syncNow() }
        }
        shell.bus.watchOnMainActor("sync:finished", owner: shell) { shell, event in
            let data = event.data
            if let failure = data["failure"], !failure.isNull {
                shell.frontend?.showStatus(tr("Sync: offline, %@ change(s) waiting", String(data["pending"]?.intValue ?? 0)))
            } else {
                shell.frontend?.showStatus(tr("Sync: up to date"))
            }
        }
        return sync
    }
}
