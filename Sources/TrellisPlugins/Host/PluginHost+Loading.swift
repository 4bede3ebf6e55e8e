import Foundation
import Logging
import TrellisCore

extension PluginHost {
    /// Reads the settings, finds every plugin and starts the enabled ones in dependency order,
    /// each in a process of its own; returns once each has loaded or failed. A later call only
    /// handles plugin folders that were not found before; the others keep their reports.
    /// - Parameter serviceOptions: start options by service name, replacing the manifests'
    ///   `autostart` options (for example a track file for `location`).
    /// - Returns: one report per plugin folder found, in search order.
    @discardableResult
    public func loadAll(serviceOptions: [String: JSONValue] = [:]) async -> [PluginReport] {
        await operations.run {
            let sequence = self.discoverNow(serviceOptions: serviceOptions, deferring: false)
            for id in sequence { await self.loadFound(id) }
        }
        return reports
    }

    /// Reads the settings and every plugin's manifest, and runs no plugin code: the plugins
    /// that would load now are reported as "inactive (waiting for onStartup)" until
    /// ``finishStartup()`` (the window calls it after its first frame, so that no plugin process
    /// competes with GTK for the processor). Their pages, commands, settings and status items
    /// are known at once, and opening one of their pages or invoking one of their commands
    /// starts the plugin before then. Call it once, at start-up, before any other operation.
    @discardableResult
    public func discover(serviceOptions: [String: JSONValue] = [:]) -> [PluginReport] {
        let sequence = discoverNow(serviceOptions: serviceOptions, deferring: true)
        state.withLock { $0.deferred += sequence }
        return reports
    }

    /// Every plugin found, as far as its manifest, its files, the settings and the other
    /// plugins tell, **without running any plugin code** (`trellis plugins` without
    /// `--check`): `found` (enabled: it would load), `disabled`, or `failed` with the reason (a
    /// manifest, a file's permissions, a missing or disabled dependency). Loads nothing and
    /// leaves ``reports`` as they are.
    public func survey() -> [PluginReport] {
        do { try settings.load() } catch { logger.error("\(error); every plugin stays enabled") }
        return plan(after: []).reports
    }

    /// Finds the plugins, records their reports and returns the ids to load now, in order.
    /// `deferring`: those are reported as waiting for the start to finish.
    private func discoverNow(serviceOptions: [String: JSONValue], deferring: Bool) -> [String] {
        do { try settings.load() } catch { logger.error("\(error); every plugin stays enabled") }
        let previous = state.withLock { state in
            state.options.merge(serviceOptions) { _, new in new }
            return state.reports
        }
        var (reports, sequence) = plan(after: previous)
        for report in reports {
            // A plugin's own translations of its manifest's texts, if it ships them.
            let locale = report.directory.appendingPathComponent("locale")
            if let id = report.manifest?.id, FileManager.default.fileExists(atPath: locale.path) {
                Localization.bindPlugin(id, localeDirectory: locale)
            }
        }
        for report in reports where !previous.contains(where: { $0.directory == report.directory }) {
            // Said where the author looks (standard error, headless), as a failed load is.
            if let failure = report.state.failure {
                logger.error("plugin \(report.id) (\(report.directory.path)): \(failure)")
            } else if case .awaitingApproval = report.state {
                logger.warning("plugin \(report.id) (\(report.directory.path)): \(report.state)")
            }
        }
        sequence = sequence.filter { id in reports.contains { $0.id == id && $0.state == .found } }
        if deferring {
            for index in reports.indices where sequence.contains(reports[index].id) && reports[index].state == .found {
                let activation = reports[index].manifest?.activation ?? [.onStartup]
                // A lazy plugin that a plugin loading now needs loads with it, at the start too.
                reports[index].state = .waiting(activation: activation.contains(.onStartup) ? activation : [.onStartup] + activation)
            }
        }
        state.withLock { $0.reports = reports }
        for report in reports {
            if case .waiting(let activation) = report.state { arm(report.id, activation) }
        }
        return sequence
    }

    /// The plugins found now, reports of `previous` kept for folders seen before, with the
    /// failures of the load order, and the order in which to load the others.
    private func plan(after previous: [PluginReport]) -> (reports: [PluginReport], sequence: [String]) {
        var reports = discovery.discover().map { report in
            if let earlier = previous.first(where: { $0.directory == report.directory }) { return earlier }
            var report = report
            if report.state == .found && !settings.isEnabled(report.id) { report.state = .disabled }
            if report.state == .found, let held = approvalHold(report) { report.state = held }
            return report
        }
        let candidates = reports.filter { $0.state == .found || $0.state == .loaded }.map { report in
            (id: report.id, dependencies: report.state == .found ? report.manifest?.dependencies ?? [] : [])
        }
        let order = PluginLoadOrder(plugins: candidates, unavailable: Self.unavailable(reports))
        for index in reports.indices where reports[index].state == .found {
            if let failure = order.failures[reports[index].id] { reports[index].state = .failed(failure) }
        }
        // Plugins that wait for an activation event, unless a plugin loading now needs them.
        let needed = Set(order.sequence.flatMap { id in reports.first { $0.id == id }?.manifest?.dependencies ?? [] })
        for index in reports.indices where reports[index].state == .found && !needed.contains(reports[index].id) {
            if let activation = reports[index].manifest?.activation, !activation.contains(.onStartup) {
                reports[index].state = .waiting(activation: activation)
            }
        }
        return (reports, order.sequence)
    }

    /// Why each plugin that will not load is unavailable, for its dependents' failures.
    private static func unavailable(_ reports: [PluginReport]) -> [String: String] {
        var reasons: [String: String] = [:]
        for report in reports where reasons[report.id] == nil {
            switch report.state {
            case .disabled: reasons[report.id] = "it is disabled"
            case .failed(let failure): reasons[report.id] = "it failed: \(failure)"
            case .awaitingApproval: reasons[report.id] = "it waits for the user's approval"
            case .found, .loaded, .waiting: break
            }
        }
        return reasons
    }

    /// Loads found plugin `id` (within an operation) and records its report.
    func loadFound(_ id: String) async {
        guard let report = state.withLock({ state -> PluginReport? in
            guard let report = state.reports.first(where: { $0.id == id && $0.state == .found }) else { return nil }
            state.starting.insert(id)
            return report
        }) else { return }
        defer { state.withLock { _ = $0.starting.remove(id) } }
        let loaded = await load(report)
        state.withLock { state in
            if let index = state.reports.firstIndex(where: { $0.directory == report.directory }) { state.reports[index] = loaded }
        }
    }

    /// Loads one found plugin whose dependencies are all loaded (within an operation).
    func load(_ report: PluginReport) async -> PluginReport {
        var report = report
        guard let manifest = report.manifest, let library = report.library else { return report }
        let reports = self.reports
        for dependency in manifest.dependencies {
            let states = reports.filter { $0.id == dependency }.map(\.state)
            guard !states.contains(.loaded) else { continue }
            report.state = .failed(states.isEmpty ? .dependencyMissing(dependency: dependency)
                : .dependencyUnavailable(dependency: dependency, reason: "it is \(states[0])"))
            return report
        }
        if let refusal = confinementRefusal(report) {
            report.state = .failed(refusal)
            logger.error("plugin \(manifest.id): \(refusal)")
            return report
        }
        let options = state.withLock { $0.options }
        let start = clock.now
        let outcome = await loader.load(manifest, library: library, options: options, onCrash: crashHandler(manifest.id))
        report.loadDuration = clock.now - start
        switch outcome {
        case .success(let loaded):
            state.withLock { state in
                state.contexts[manifest.id] = loaded.context
                state.loaded[manifest.id] = loaded
            }
            report.state = .loaded
            report.confinement = loaded.confinement
            logger.info("loaded plugin \(manifest.id) \(manifest.version) from \(library.path) in a process of its own")
            deliverSettingsChanged(during: loaded, manifest)
        case .failure(let failure):
            report.state = .failed(failure)
            logger.error("plugin \(manifest.id) (\(report.directory.path)): \(failure)")
            // A crash while it started is a crash: retried by the restart policy.
            if failure.isCrash { crashHandler(manifest.id, whileLoading: true)(failure) }
        }
        return report
    }
}
