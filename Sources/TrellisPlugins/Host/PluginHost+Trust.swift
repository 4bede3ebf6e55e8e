import TrellisCore
extension PluginHost {
    /// Starts plugin `id`'s process again, when it is loaded, because what its grants stand
    /// for changed (the path of a `setting:KEY` files grant): the kernel's rules are fixed
    /// when a process starts. Its services and watches are those of the new process; not a crash.
    func restartForNewGrants(_ id: String) async {
        await operations.run {
            guard let report = self.report(for: id), report.state == .loaded, let manifest = report.manifest,
                  let library = report.library, let loaded = self.state.withLock({ $0.loaded[id] }) else { return }
            let options = self.state.withLock { $0.options }
            await self.end(loaded, manifest)
            if let failure = await self.loader.relaunch(manifest, library: library, loaded: loaded, options: options,
                                                        onCrash: self.crashHandler(id)) {
                self.logger.error("plugin \(id) could not be started again with its new grants: \(failure)")
                self.updateReport(of: id) { $0.state = .failed(failure) }
            } else {
                self.logger.notice("plugin \(id) started again: what its grants stand for changed")
            }
        }
    }
}

extension PluginHost {
    /// The state plugin `report` waits in until the user approves it, or nil: plugins from
    /// the user's plugin folder wait while they ask for anything not approved yet (see
    /// ``PluginApprovals``); shipped plugins and those of a `--plugin-dir` never do.
    func approvalHold(_ report: PluginReport) -> PluginReport.State? {
        guard report.origin == .user, let manifest = report.manifest,
              let pending = settings.approvals.pending(manifest) else { return nil }
        return .awaitingApproval(grants: pending.grants, more: pending.earlierApproved)
    }

    /// Approves what plugin `id` asks for now and, when it waited for that and is enabled,
    /// starts it. Returns the report afterwards, or nil when no plugin has this id.
    @discardableResult
    public func approve(_ id: String) async throws(PluginSettingsError) -> PluginReport? {
        guard let report = report(for: id), let manifest = report.manifest else { return nil }
        try settings.approvals.approve(manifest, file: report.directory.appendingPathComponent(PluginManifest.fileName))
        logger.notice("plugin \(id): approved: \(PluginApprovals.grants(of: manifest).joined(separator: "; "))")
        await operations.run {
            guard let report = self.report(for: id), case .awaitingApproval = report.state else { return }
            var waiting = report
            waiting.state = self.settings.isEnabled(id) ? .found : .disabled
            let loaded = waiting.state == .found ? await self.load(waiting) : waiting
            self.updateReport(of: id) { $0 = loaded }
        }
        bus.trigger(PluginApproved(plugin: id))
        return self.report(for: id)
    }

    /// Why plugin `report` may not load when confinement is required and this kernel cannot
    /// confine it fully (plugins the app ships are exempt), or nil.
    func confinementRefusal(_ report: PluginReport) -> PluginFailure? {
        guard settings.requiresConfinement, report.origin == .user || report.origin == .commandLine,
              let manifest = report.manifest else { return nil }
        guard let kernel = PluginConfinementReport.probe() else {
            return .unconfined(reason: "the plugin host cannot tell what this kernel confines")
        }
        let applied = kernel.applied(to: manifest.permissions.resources)
        guard !applied.isComplete else { return nil }
        return .unconfined(reason: applied.missing.joined(separator: "; "))
    }
}
