import Logging
import TrellisCore

/// Crashes and restarts: VS Code's extension host is restarted unless it crashed 3 times in
/// 5 minutes; here each plugin is, on the host's clock.
extension PluginHost {
    /// A plugin that crashes this many times within ``crashWindow`` is not restarted again.
    public static let crashLimit = 3
    /// See ``crashLimit``.
    public static let crashWindow = Duration.seconds(5 * 60)

    /// What a plugin's connection calls when its process ends unasked. The crash is dated
    /// when it is told, so that the restart's back-off runs from then however late the task
    /// handling it starts.
    func crashHandler(_ id: String, whileLoading: Bool = false) -> @Sendable (PluginFailure) -> Void {
        { [weak self] failure in
            guard let self else { return }
            let at = self.clock.now
            Task { await self.crashed(id, failure, at: at, whileLoading: whileLoading) }
        }
    }

    /// A plugin's process ended unasked, once loaded or while it started (`whileLoading`, its
    /// load has failed with the crash already): its services are marked stopped, its watches
    /// are gone (its context is inactive), the report says why, and `plugin:crashed` tells the
    /// bus (`{"plugin": id, "reason": text}`). It is started again at once after a first crash,
    /// a second later after a second one, unless this was its ``crashLimit``th crash within
    /// ``crashWindow``: then it is disabled, with that reason, until the user enables it again.
    private func crashed(_ id: String, _ failure: PluginFailure, at time: Duration, whileLoading: Bool) async {
        if !whileLoading { logger.error("plugin \(id): \(failure)") }
        let restartAfter: Duration? = await operations.run {
            guard let report = self.report(for: id), let manifest = report.manifest,
                  report.state == .loaded || whileLoading else { return nil }
            if let loaded = self.state.withLock({ $0.loaded[id] }) { loaded.context.setPhase(.inactive) }
            for service in manifest.services.reversed() where self.loader.services.isRunning(service) {
                // The process is gone: the registry marks the service stopped (its stop is not sent).
                try? await self.loader.services.stop(service)
            }
            let recent = self.recordCrash(of: id, at: time)
            var delay: Duration?
            if recent >= Self.crashLimit {
                self.updateReport(of: id) { $0.state = .failed(.crashedTooOften(crashes: recent, last: failure)) }
                do { try self.settings.setEnabled(id, false) } catch { self.logger.error("\(error)") }
            } else {
                self.updateReport(of: id) { $0.state = .failed(failure) }
                // At once after a first crash, a second later after a second one.
                delay = .seconds(recent - 1)
            }
            return delay
        }
        bus.trigger(PluginCrashed(plugin: id, reason: failure.description))
        guard let restartAfter else { return }
        try? await clock.sleep(until: time + restartAfter)
        await restart(id)
    }

    /// Counts a crash of plugin `id` at `time`; returns its crashes within ``crashWindow``.
    private func recordCrash(of id: String, at time: Duration) -> Int {
        state.withLock { state in
            let times = (state.crashes[id] ?? []).filter { time - $0 < Self.crashWindow } + [time]
            state.crashes[id] = times
            return times.count
        }
    }

    /// Starts a crashed plugin again in a new process, if it is still enabled and crashed.
    private func restart(_ id: String) async {
        let restarted = await operations.run { () -> Bool in
            guard let report = self.report(for: id), let manifest = report.manifest, let library = report.library,
                  self.settings.isEnabled(id), case .failed(let failure) = report.state, failure.isCrash else { return false }
            guard let loaded = self.state.withLock({ $0.loaded[id] }) else {
                // It crashed before it ever loaded: loaded afresh.
                var found = report
                found.state = .found
                let again = await self.load(found)
                self.updateReport(of: id) { $0 = again }
                return again.state == .loaded
            }
            let options = self.state.withLock { $0.options }
            if let failure = await self.loader.relaunch(manifest, library: library, loaded: loaded, options: options,
                                                        onCrash: self.crashHandler(id)) {
                self.updateReport(of: id) { $0.state = .failed(failure) }
                self.logger.error("plugin \(id) could not be restarted: \(failure)")
                return false
            }
            self.updateReport(of: id) { $0.state = .loaded }
            self.logger.notice("plugin \(id) restarted")
            return true
        }
        if restarted { bus.trigger(PluginRestarted(plugin: id)) }
    }

    /// Ends plugin `id`'s process because it missed a deadline the process itself does not
    /// watch (a page request, see ``PluginPage``): logged with `reason`, reported and restarted
    /// as a crash. False, with nothing done, for a plugin that has no process now.
    @discardableResult
    public func kill(_ id: String, because reason: String) -> Bool {
        guard let loaded = state.withLock({ $0.loaded[id] }), report(for: id)?.state == .loaded else { return false }
        loaded.connection.kill(because: reason)
        return true
    }

    /// Brings plugin `id` back because the user asked (the Restart button of its page): a
    /// waiting plugin is activated, a disabled or crashed one enabled (a new process). Returns
    /// the report afterwards.
    @discardableResult
    public func restartByUser(_ id: String) async -> PluginReport? {
        switch report(for: id)?.state {
        case .waiting?:
            return await activate(id)
        case .loaded?:
            return report(for: id)
        default:
            do { return try await setEnabled(id, true) } catch {
                logger.error("plugin \(id): \(error)")
                return report(for: id)
            }
        }
    }
}
