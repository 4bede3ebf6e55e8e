import Foundation
import Logging
import TrellisCore

/// The watches that wake one waiting plugin (their owner on the bus).
final class ActivationWatch: Sendable {}

extension PluginHost {
    /// Starts plugin `id` now if it waits for an activation event (see ``PluginActivation``),
    /// after the waiting plugins it depends on, and triggers `plugin:activated` for each.
    /// Returns the plugin's report afterwards.
    @discardableResult
    public func activate(_ id: String) async -> PluginReport? {
        await operations.run { await self.activateWaiting(id) }
        return report(for: id)
    }

    /// Starts the plugins that ``discover(serviceOptions:)`` left waiting for the start to
    /// finish, in their load order (those opened or invoked since are loaded already),
    /// triggering `plugin:activated` for each. Does nothing when nothing was deferred.
    public func finishStartup() async {
        await operations.run {
            for id in self.state.withLock({ $0.deferred }) {
                await self.activateWaiting(id, logLevel: .info)
                self.state.withLock { $0.deferred.removeAll { $0 == id } }
            }
        }
    }

    /// ``activate(_:)``'s work, within an operation: its waiting dependencies first. Logged at
    /// `logLevel` (info for the plugins loaded at every start). The plugin is reported as
    /// waiting until it is loaded; `dependents`: the plugins whose activation asked for this
    /// one (a cycle, refused when found, cannot recurse).
    private func activateWaiting(_ id: String, logLevel: Logger.Level = .notice, dependents: Set<String> = []) async {
        guard !dependents.contains(id), let report = report(for: id), case .waiting = report.state,
              settings.isEnabled(id) else { return }
        disarm(id)
        for dependency in report.manifest?.dependencies ?? [] {
            await activateWaiting(dependency, logLevel: logLevel, dependents: dependents.union([id]))
        }
        var found = report
        found.state = .found
        let loaded = await load(found)
        state.withLock { state in
            if let index = state.reports.firstIndex(where: { $0.directory == report.directory }) { state.reports[index] = loaded }
        }
        logger.log(level: logLevel, "plugin \(id) activated: \(loaded.state)")
        bus.trigger(PluginActivated(plugin: id, state: loaded.state.description))
    }

    /// Watches the `onEvent:` patterns of waiting plugin `id`; the first matching event starts
    /// it (the event may come from the GTK thread, which never waits for it).
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
                self.requestActivation(id)
            }
        }
    }

    /// Removes the activation watches of plugin `id`.
    func disarm(_ id: String) {
        if let owner = state.withLock({ $0.activations.removeValue(forKey: id) }) { bus.unwatch(owner: owner) }
    }
}
