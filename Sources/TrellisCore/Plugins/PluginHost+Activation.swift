import Foundation

/// The watches that wake one waiting plugin (their owner on the bus).
final class ActivationWatch: Sendable {}

extension PluginHost {
    /// Loads plugin `id` now if it waits for an activation event (see ``PluginActivation``),
    /// and triggers `plugin:activated`. Blocks as ``loadAll`` does: call it from a thread of
    /// your own. Returns the plugin's report afterwards.
    @discardableResult
    public func activate(_ id: String) -> PluginReport? {
        perform {
            var reports = self.reports
            guard let index = Self.index(of: id, in: reports), case .waiting = reports[index].state,
                  self.settings.isEnabled(id) else { return }
            self.disarm(id)
            reports[index].state = .found
            reports[index] = self.load(reports[index], loadedSoFar: reports)
            let state = reports[index].state
            self.state.withLock { $0.reports[index] = reports[index] }
            self.logger.notice("plugin \(id) activated: \(state)")
            self.bus.trigger("plugin:activated", ["plugin": .string(id), "state": .string(state.description)])
        }
        return report(for: id)
    }

    /// Watches the `onEvent:` patterns of waiting plugin `id`; the first matching event loads
    /// it, on a thread of its own (the event may come from the GTK thread).
    func arm(_ id: String, _ activation: [PluginActivation]) {
        let patterns = activation.compactMap { event -> String? in
            if case .onEvent(let pattern) = event { return pattern } else { return nil }
        }
        guard !patterns.isEmpty else { return }
        let owner = ActivationWatch()
        guard state.withLock({ state in
            guard state.activations[id] == nil else { return false }
            state.activations[id] = owner
            return true
        }) else { return }
        for pattern in patterns {
            bus.watch(pattern, owner: owner) { [weak self] owner, _ in
                guard let self, self.state.withLock({ $0.activations[id] === owner }) else { return }
                Thread.detachNewThread { self.activate(id) }
            }
        }
    }

    /// Removes the activation watches of plugin `id`.
    func disarm(_ id: String) {
        if let owner = state.withLock({ $0.activations.removeValue(forKey: id) }) { bus.unwatch(owner: owner) }
    }
}
