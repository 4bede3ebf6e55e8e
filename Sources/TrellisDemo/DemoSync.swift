import Foundation
import TrellisCore
import TrellisStore
import TrellisSync

/// Syncs the notes with a server when one is configured (`--server URL`, or `sync.server` in
/// `$XDG_CONFIG_HOME/trellis/settings.json`); without one the notes stay local.
///
/// A pass runs at start, after every save, every 30 s, and when the bus says
/// `sync:requested` (a notification with `content-available: 1`); each ends with
/// `sync:finished`, shown first in the status line (``DemoStatus``): up to date, offline
/// with the number of changes waiting, failed and why, refused, or a list that left out too
/// many notes; and the conflicts left to review. `/sync` shows the whole reason, what waits,
/// and "Sync now"; the notes page's header bar opens it.
@MainActor
public enum DemoSync {
    public enum Failure: Error, CustomStringConvertible {
        case settings(String)
        public var description: String {
            switch self { case .settings(let reason): return reason }
        }
    }

    /// The settings file's path: `$XDG_CONFIG_HOME/trellis/settings.json`, by default under
    /// `$HOME/.config`.
    public static func settingsURL(environment: [String: String] = ProcessEnvironment.current) -> URL {
        let home = environment["HOME"].flatMap { $0.isEmpty ? nil : $0 } ?? NSHomeDirectory()
        let config = environment["XDG_CONFIG_HOME"].flatMap { $0.hasPrefix("/") ? URL(fileURLWithPath: $0) : nil }
            ?? URL(fileURLWithPath: home).appendingPathComponent(".config")
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
    ///
    /// - Parameters:
    ///   - background: run passes by themselves (at start, after saves, every 30 s) and on
    ///     `sync:requested`; without, only the passes the caller asks for run
    ///     (`trellis --headless`, which syncs before its first page and after its last step).
    ///   - passesLater: with `background`, the passes by themselves begin at
    ///     ``startPasses(on:)`` (the window's, once its plugins are loaded, so that the
    ///     activity indicator shows the first pass too).
    @discardableResult
    public static func start(on shell: Shell, store: PersistentStore, server: URL?,
                             settingsFile: URL = settingsURL(), background: Bool = true,
                             passesLater: Bool = false) throws -> EntitySync? {
        let settings = try settings(server: server, file: settingsFile)
        guard let url = settings.server else { return nil }
        let sync: EntitySync
        do {
            sync = try EntitySync(store: store, bus: shell.bus, server: url, settings: settings)
        } catch {
            throw Failure.settings(String(describing: error))
        }
        shell.provide(sync)
        shell.provide(DemoSyncState())
        if background {
            if !passesLater { sync.start() }
            shell.bus.watchOnMainActor(NotificationRouter.Message.syncRequested, owner: sync) { sync, _ in
                Task { _ = try? await sync.syncNow() }
            }
        }
        shell.bus.watchOnMainActor(EntitySync.Events.finished, owner: shell) { shell, event in
            shell.resolve(DemoSyncState.self)?.lastReport = event.data
            showState(on: shell, after: event.data)
        }
        shell.bus.watchOnMainActor(EntitySync.Events.keptChanged, owner: shell) { shell, _ in
            showState(on: shell, after: nil)
        }
        return sync
    }

    /// Begins the passes that ``start(on:store:server:settingsFile:background:passesLater:)``
    /// left for later (nothing when no server is configured).
    public static func startPasses(on shell: Shell) {
        shell.resolve(EntitySync.self)?.start()
    }

    /// The sync's part of the status line after a pass (`report`, the data of
    /// `sync:finished`), or after the conflicts changed (`nil`: the last pass's words stay).
    static func showState(on shell: Shell, after report: JSONValue?) {
        guard let sync = shell.resolve(EntitySync.self) else { return }
        let status = DemoStatus.of(shell)
        var state: String
        if let report {
            state = stateLine(of: report)
        } else {
            state = status.sync?.components(separatedBy: "; ").first ?? tr("Sync: up to date")
        }
        let conflicts = (try? sync.conflicts().count) ?? 0
        if conflicts > 0 { state += "; " + trn("%@ conflict to review", "%@ conflicts to review", count: conflicts, String(conflicts)) }
        status.showSync(state)
    }

    /// The sync's words for a pass (`report`, the data of `sync:finished`), without the
    /// conflicts: what a person needs first, with the reason in a few words.
    static func stateLine(of report: JSONValue) -> String {
        let pending = report["pending"]?.intValue ?? 0
        if let suspect = report["suspectList"], !suspect.isNull {
            return tr("Sync: the server no longer lists %@ of %@ notes; nothing was taken out (see Sync)",
                      String(suspect["missing"]?.intValue ?? 0), String(suspect["known"]?.intValue ?? 0))
        }
        if let failure = report["failure"]?.stringValue {
            if report["offline"]?.boolValue == true {
                return trn("Sync: offline, %@ change waiting", "Sync: offline, %@ changes waiting", count: pending, String(pending))
            }
            return trn("Sync failed: %@; %@ change waiting", "Sync failed: %@; %@ changes waiting", count: pending,
                       shortReason(failure), String(pending))
        }
        if report["refusals"]?.arrayValue?.isEmpty == false {
            return trn("Sync: the server refused a change, %@ change waiting", "Sync: the server refused a change, %@ changes waiting",
                       count: pending, String(pending))
        }
        return tr("Sync: up to date")
    }

    /// The gist of a failure's description ("GET http://…/notes: the server answered HTTP 500:
    /// {…}" → "the server answered HTTP 500").
    static func shortReason(_ failure: String) -> String {
        var reason = failure
        if let colon = reason.range(of: ": ", options: []), reason.hasPrefix("GET ") || reason.hasPrefix("PUT ")
            || reason.hasPrefix("POST ") || reason.hasPrefix("DELETE ") || reason.hasPrefix("PATCH ")
        {
            reason = String(reason[colon.upperBound...])
        }
        if let detail = reason.range(of: ": ") { reason = String(reason[..<detail.lowerBound]) }
        return reason.count > 80 ? String(reason.prefix(79)) + "…" : reason
    }
}

/// The last pass's report, for `/sync` (provided in the shell's environment by
/// ``DemoSync/start(on:store:server:settingsFile:background:passesLater:)``).
@MainActor
public final class DemoSyncState {
    /// The data of the last `sync:finished`, if a pass ended.
    public internal(set) var lastReport: JSONValue?
}
