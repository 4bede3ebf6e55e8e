import Foundation
import TrellisCore

/// Changing plugins while the app runs: the settings file followed, a plugin reloaded from its
/// folder (`trellis --plugin-dev`).
extension PluginHost {
    /// Reads the settings file again and applies every change found in it now — a plugin
    /// disabled or enabled by `trellis plugins --disable/--enable` while the app runs — as
    /// ``setEnabled(_:_:)`` would.
    public func applySettings() async {
        await operations.run {
            let before = Set(self.settings.disabledIDs)
            do { try self.settings.load() } catch {
                self.logger.error("\(error); plugins left as they are")
                return
            }
            for id in before.symmetricDifference(self.settings.disabledIDs).sorted() { await self.applySetting(of: id) }
        }
    }

    /// Applies the settings file whenever it changes (see ``applySettings()``): it is looked at
    /// every `interval` of the host's clock, for as long as the host lives; the window calls
    /// this once.
    public func followSettings(interval: Duration = .milliseconds(500)) {
        let poller = FileChangePoller(interval: interval, clock: clock, files: { [settings] in [settings.url] },
                                      onChange: { [weak self] in await self?.applySettings() })
        state.withLock { $0.settingsPoller = poller }
        poller.start()
    }

    /// Reloads plugin `id` from its folder as it is now: reads its manifest again, ends its
    /// process and starts a new one on the library (`trellis --plugin-dev` calls it after each
    /// rebuild), then triggers `plugin:reloaded`. The manifest may change anything but the id
    /// and the services (changing those needs a restart of the app): otherwise, or when the
    /// manifest is invalid, the running plugin stays as it was and the reason is logged and
    /// returned. A plugin that never loaded (a bad manifest, a missing library, a failing start)
    /// is found and loaded afresh.
    /// - Returns: why the plugin was not reloaded, or nil.
    @discardableResult
    public func reload(_ id: String) async -> String? {
        await operations.run { await self.reloadNow(id) }
    }

    private func reloadNow(_ id: String) async -> String? {
        guard let report = report(for: id) else { return "plugin \(id): there is no such plugin" }
        guard let loaded = state.withLock({ $0.loaded[id] }) else {
            // It never loaded: try afresh.
            guard report.state.failure != nil || report.state == .found else { return "plugin \(id): it is \(report.state)" }
            guard var fresh = discovery.discover().first(where: { $0.directory == report.directory }) else {
                return "plugin \(id): its folder is gone"
            }
            if fresh.state == .found { fresh = await load(fresh) }
            state.withLock { state in
                if let index = state.reports.firstIndex(where: { $0.directory == report.directory }) { state.reports[index] = fresh }
            }
            bus.trigger(PluginReloaded(plugin: fresh.id, state: fresh.state.description))
            return nil
        }
        guard let old = report.manifest, let library = report.library else { return "plugin \(id): its manifest is unknown" }
        let manifest: PluginManifest
        do {
            manifest = try PluginManifest.load(from: report.directory.appendingPathComponent(PluginManifest.fileName))
        } catch {
            logger.error("plugin \(id): not reloaded: \(error)")
            return "\(error)"
        }
        guard manifest.id == id, manifest.services == old.services else {
            let reason = "plugin \(id): not reloaded: its manifest changed its id or services (restart the app for that)"
            logger.error("\(reason)")
            return reason
        }
        let options = state.withLock { state in
            state.crashes[id] = []
            return state.options
        }
        if report.state == .loaded { await end(loaded, old) } else { await loaded.connection.terminate() }
        loaded.context.replacePermissions(manifest.permissions)
        let failure = await loader.relaunch(manifest, library: library, loaded: loaded, options: options, onCrash: crashHandler(id))
        let state: PluginReport.State = failure.map { .failed($0) } ?? .loaded
        updateReport(of: id) { report in
            report.manifest = manifest
            report.state = state
        }
        logger.notice("plugin \(id) reloaded: \(state)")
        bus.trigger(PluginReloaded(plugin: id, state: state.description))
        return nil
    }
}
