import TrellisCore
extension PluginHost {
    /// Starts plugin `id`'s process again, when it runs in one, because what its grants stand
    /// for changed (the path of a `setting:KEY` files grant): the kernel's rules are fixed
    /// when a process starts. Its services and watches are those of the new process; not a crash.
    func restartForNewGrants(_ id: String) {
        perform {
            guard let index = Self.index(of: id, in: self.reports), case .loaded = self.reports[index].state,
                  let manifest = self.reports[index].manifest, let library = self.reports[index].library,
                  let loaded = self.state.withLock({ $0.loaded[id] }), let process = loaded.process?.process else { return }
            let options = self.state.withLock { $0.options }
            process.willEnd()
            self.deactivate(loaded.context, manifest)
            process.terminateAndWait()
            if let failure = self.loader.relaunch(manifest, library: library, loaded: loaded, options: options,
                                                  onCrash: self.crashHandler(id)) {
                self.logger.error("plugin \(id) could not be started again with its new grants: \(failure)")
                self.state.withLock { $0.reports[index].state = .failed(failure) }
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
    /// loads it. Blocks as ``loadAll(serviceOptions:deferringStartup:)`` does. Returns the
    /// report afterwards, or nil when no plugin has this id.
    @discardableResult
    public func approve(_ id: String) throws(PluginSettingsError) -> PluginReport? {
        guard let report = report(for: id), let manifest = report.manifest else { return nil }
        try settings.approvals.approve(manifest, file: report.directory.appendingPathComponent(PluginManifest.fileName))
        logger.notice("plugin \(id): approved: \(PluginApprovals.grants(of: manifest).joined(separator: "; "))")
        perform {
            guard let index = Self.index(of: id, in: self.reports), case .awaitingApproval = self.reports[index].state else { return }
            var waiting = self.reports[index]
            waiting.state = self.settings.isEnabled(id) ? .found : .disabled
            let loaded = waiting.state == .found ? self.load(waiting, loadedSoFar: self.reports) : waiting
            self.state.withLock { $0.reports[index] = loaded }
        }
        bus.trigger("plugin:approved", ["plugin": .string(id)])
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
