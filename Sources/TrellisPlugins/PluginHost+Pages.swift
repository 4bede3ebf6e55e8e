import TrellisCore

extension PluginHost {
    /// Ends plugin `id`'s process because it missed a deadline the process itself does not
    /// watch (a page request, see ``PluginPage``): logged with `reason`, reported and restarted
    /// as a crash. False, with nothing done, for a plugin that has no process (not loaded, or
    /// running in the shell's process, which cannot be stopped).
    @discardableResult
    public func kill(_ id: String, because reason: String) -> Bool {
        guard let process = state.withLock({ $0.loaded[id] })?.process?.process else { return false }
        process.kill(because: reason)
        return true
    }

    /// Brings plugin `id` back because the user asked (the Restart button of its page): a
    /// waiting plugin is activated, a disabled or crashed one enabled (a new process). Blocks
    /// as ``loadAll(serviceOptions:deferringStartup:)`` does: call it from a thread of your own. Returns the report afterwards.
    @discardableResult
    public func restartByUser(_ id: String) -> PluginReport? {
        switch report(for: id)?.state {
        case .waiting?:
            return activate(id)
        case .loaded?:
            return report(for: id)
        default:
            do { return try setEnabled(id, true) } catch {
                logger.error("plugin \(id): \(error)")
                return report(for: id)
            }
        }
    }
}
