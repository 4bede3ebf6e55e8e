import TrellisCore

/// Changing plugins while the app runs: the settings file followed, a plugin reloaded from its
/// folder (`trellis --plugin-dev`).
extension PluginHost {
    /// Reads the settings file again and applies every change found in it now — a plugin
    /// disabled or enabled by `trellis plugins --disable/--enable` while the app runs — as
    /// ``setEnabled(_:_:)`` would. Blocks as ``loadAll(serviceOptions:deferringStartup:)`` does.
    public func applySettings() {
        let before = Set(settings.disabledIDs)
        do { try settings.load() } catch {
            logger.error("\(error); plugins left as they are")
            return
        }
        let changed = before.symmetricDifference(settings.disabledIDs)
        guard !changed.isEmpty else { return }
        perform { for id in changed.sorted() { self.applySetting(of: id) } }
    }

    /// Applies the settings file whenever it changes (see ``applySettings()``), from a thread
    /// of its own, for as long as the host lives; the window calls it once.
    public func followSettings(interval: Duration = .milliseconds(500)) {
        let poller = FileChangePoller(interval: interval, files: { [settings] in [settings.url] },
                                      onChange: { [weak self] in self?.applySettings() })
        state.withLock { $0.settingsPoller = poller }
        poller.start()
    }

    /// Reloads plugin `id`, loaded in a process of its own, from its folder as it is now: reads
    /// its manifest again, ends its process and starts a new one on the library (`trellis
    /// --plugin-dev` calls it after each rebuild), then triggers `plugin:reloaded`. The
    /// manifest may change anything but the id and the services (changing those needs a
    /// restart of the app): otherwise, or when the manifest is invalid, the running plugin
    /// stays as it was and the reason is logged and returned. Blocks as ``loadAll(serviceOptions:deferringStartup:)`` does.
    /// - Returns: why the plugin was not reloaded, or nil.
    @discardableResult
    public func reload(_ id: String) -> String? {
        let outcome = LockedState<String?>(nil)
        perform { outcome.withLock { $0 = self.reloadNow(id) } }
        return outcome.withLock { $0 }
    }

    private func reloadNow(_ id: String) -> String? {
        var reports = self.reports
        if let index = Self.index(of: id, in: reports), reports[index].state.failure != nil,
           state.withLock({ $0.loaded[id] }) == nil {
            // It never loaded (a bad manifest, a missing library, a failing start): try afresh.
            guard let fresh = discovery.discover().first(where: { $0.directory == reports[index].directory }) else {
                return "plugin \(id): its folder is gone"
            }
            reports[index] = fresh.state == .found ? load(fresh, loadedSoFar: reports) : fresh
            state.withLock { $0.reports = reports }
            loader.bus.trigger("plugin:reloaded", ["plugin": .string(id), "state": .string(reports[index].state.description)])
            return nil
        }
        guard let index = Self.index(of: id, in: reports), let old = reports[index].manifest,
              let library = reports[index].library,
              let loaded = state.withLock({ $0.loaded[id] }), let handle = loaded.process else {
            return "plugin \(id): only a plugin loaded in a process of its own can be reloaded"
        }
        let manifest: PluginManifest
        do {
            manifest = try PluginManifest.load(from: reports[index].directory.appendingPathComponent(PluginManifest.fileName))
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
        handle.process.willEnd()
        if reports[index].state == .loaded { deactivate(loaded.context, old) }
        handle.process.terminateAndWait()
        loaded.context.replacePermissions(manifest.permissions)
        reports[index].manifest = manifest
        if let failure = loader.relaunch(manifest, library: library, loaded: loaded, options: options, onCrash: crashHandler(id)) {
            reports[index].state = .failed(failure)
        } else {
            reports[index].state = .loaded
        }
        state.withLock { $0.reports = reports }
        logger.notice("plugin \(id) reloaded: \(reports[index].state)")
        loader.bus.trigger("plugin:reloaded", ["plugin": .string(id), "state": .string(reports[index].state.description)])
        return nil
    }
}
