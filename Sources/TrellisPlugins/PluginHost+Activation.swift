import TrellisCore
import Foundation
import Logging

/// The watches that wake one waiting plugin (their owner on the bus).
final class ActivationWatch: Sendable {}

extension PluginHost {
    /// Loads plugin `id` now if it waits for an activation event (see ``PluginActivation``),
    /// after the waiting plugins it depends on, and triggers `plugin:activated` for each.
    /// Blocks as ``loadAll(serviceOptions:deferringStartup:)`` does: call it from a thread of
    /// your own. Returns the plugin's report afterwards.
    @discardableResult
    public func activate(_ id: String) -> PluginReport? {
        perform { self.activateWaiting(id) }
        return report(for: id)
    }

    /// Loads the plugins that ``loadAll(serviceOptions:deferringStartup:)`` left waiting for the
    /// start to finish, in their load order (those opened or invoked since are loaded already),
    /// triggering `plugin:activated` for each. Blocks as `loadAll` does: call it from a thread
    /// of your own. Does nothing when nothing was deferred.
    public func finishStartup() {
        perform {
            for id in self.state.withLock({ $0.deferred }) {
                self.activateWaiting(id, logLevel: .info)
                self.state.withLock { $0.deferred.removeAll { $0 == id } }
            }
        }
    }

    /// ``activate(_:)``'s work, within an operation: its waiting dependencies first. Logged at
    /// `logLevel` (info for the plugins loaded at every start, as
    /// ``loadAll(serviceOptions:deferringStartup:)`` logs them). The plugin is reported as
    /// waiting until it is loaded; `dependents`: the plugins whose activation asked for this
    /// one (a cycle, refused when found, cannot recurse).
    private func activateWaiting(_ id: String, logLevel: Logger.Level = .notice, dependents: Set<String> = []) {
        guard !dependents.contains(id), let index = Self.index(of: id, in: reports),
              case .waiting = reports[index].state, settings.isEnabled(id) else { return }
        disarm(id)
        state.withLock { _ = $0.starting.insert(id) }
        defer { state.withLock { _ = $0.starting.remove(id) } }
        for dependency in reports[index].manifest?.dependencies ?? [] {
            activateWaiting(dependency, logLevel: logLevel, dependents: dependents.union([id]))
        }
        var reports = self.reports
        reports[index].state = .found
        let report = load(reports[index], loadedSoFar: reports)
        state.withLock { $0.reports[index] = report }
        logger.log(level: logLevel, "plugin \(id) activated: \(report.state)")
        bus.trigger("plugin:activated", ["plugin": .string(id), "state": .string(report.state.description)])
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
