import Logging
import TrellisCore

extension PluginHost {
    /// Enables or disables plugin `id`, remembers it in the settings, and applies it now:
    /// disabling a loaded plugin stops its services, removes its watches and ends its process;
    /// enabling a disabled plugin starts it in a new process (and its autostart services). For
    /// a plugin that failed, the choice takes effect at the next start. Calls from several
    /// tasks at once end with the plugin as the settings last say.
    /// - Returns: the plugin's report afterwards, or `nil` if no plugin has this id.
    @discardableResult
    public func setEnabled(_ id: String, _ enabled: Bool) async throws(PluginSettingsError) -> PluginReport? {
        try settings.setEnabled(id, enabled)
        await operations.run { await self.applySetting(of: id) }
        return report(for: id)
    }

    /// Brings plugin `id` to the state its setting asks for (within an operation).
    func applySetting(of id: String) async {
        let enabled = settings.isEnabled(id)
        guard var report = report(for: id) else { return }
        let options = state.withLock { $0.options }
        switch (enabled, report.state) {
        case (false, .waiting):
            disarm(id)
            state.withLock { $0.deferred.removeAll { $0 == id } }
            report.state = .disabled
        case (false, .loaded):
            // A disabled plugin's process ends (not a crash, even if a stop misses its
            // deadline); enabling it starts a new one.
            if let loaded = state.withLock({ $0.loaded[id] }), let manifest = report.manifest {
                await end(loaded, manifest)
            }
            report.state = .disabled
        case (true, .disabled):
            if let loaded = state.withLock({ $0.loaded[id] }), let manifest = report.manifest, let library = report.library {
                if let failure = await loader.relaunch(manifest, library: library, loaded: loaded, options: options,
                                                       onCrash: crashHandler(id)) {
                    report.state = .failed(failure)
                } else {
                    report.state = .loaded
                }
            } else {
                report.state = .found
                report = await load(report)
            }
        case (true, .failed(let failure)) where failure.isCrash:
            if let loaded = state.withLock({ $0.loaded[id] }), let manifest = report.manifest, let library = report.library {
                state.withLock { $0.crashes[id] = [] }
                if let failure = await loader.relaunch(manifest, library: library, loaded: loaded, options: options,
                                                       onCrash: crashHandler(id)) {
                    report.state = .failed(failure)
                } else {
                    report.state = .loaded
                }
            }
        default:
            break
        }
        let state = report.state
        updateReport(of: id) { $0 = report }
        logger.info("plugin \(id) \(enabled ? "enabled" : "disabled"): \(state)")
        if enabled {
            bus.trigger(PluginEnabled(plugin: id, state: state.description))
        } else {
            bus.trigger(PluginDisabled(plugin: id, state: state.description))
        }
    }

    /// Ends loaded plugin `loaded` on purpose (disabled, reloaded): its running services are
    /// stopped, it is made inactive (its watches end), its process ends. A process that
    /// crashes on the way (in a service's stop, say) is reported as a crash would be — logged
    /// and `plugin:crashed` — but not restarted.
    func end(_ loaded: PluginLoader.Loaded, _ manifest: PluginManifest) async {
        let connection = loaded.connection
        await connection.prepareToEnd()
        for service in manifest.services.reversed() where loader.services.isRunning(service) {
            do { try await loader.services.stop(service) } catch { logger.error("plugin \(manifest.id): \(error)") }
        }
        loaded.context.setPhase(.inactive)
        await connection.terminate()
        if let fault = await connection.faultWhileEnding {
            logger.error("plugin \(manifest.id): its process ended while it was being stopped: \(fault)")
            bus.trigger(PluginCrashed(plugin: manifest.id, reason: fault.description))
        }
    }
}
