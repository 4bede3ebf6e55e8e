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
