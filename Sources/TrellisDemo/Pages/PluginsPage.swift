import Foundation
import TrellisCore
import TrellisPlugins

/// `/plugins`: every plugin found, with its version, state and the reason of any failure (the
/// window's form of `trellis plugins`), and a check box per plugin that enables or disables it
/// now, without a restart — a plugin in a process of its own starts or ends its process.
/// Enabling a plugin that crashed too often is how the user lets it start again. A plugin the
/// user installed waits for their approval: its line says what it asks for, in words, and an
/// Approve button per waiting plugin lets it load. Each line says what confines the plugin
/// and what this kernel cannot (`trellis plugins` says the same).
final class PluginsPage: PageController {
    /// One plugin's line: "Name · version · state · reason or description · confined by …".
    struct Row: CustomStringConvertible, Sendable {
        let id: String
        let text: String
        var description: String { text }

        init(_ report: PluginReport) {
            id = report.id
            var reason = report.state.failure.map { String(describing: $0) } ?? report.manifest?.description ?? ""
            if case .awaitingApproval = report.state { reason = report.state.description }
            let confinement = report.manifest.flatMap { manifest in
                (report.confinement ?? PluginConfinementReport.probe()?.applied(to: manifest.permissions.resources))
            }
            let confined = confinement.map { ([tr("confined by: %@", $0.summary)] + $0.missing.map { tr("not confined: %@", $0) }) } ?? []
            text = ([report.manifest?.name ?? report.id, report.version, report.stateWord, reason] + confined)
                .filter { !$0.isEmpty }.map(PluginReport.escaped).joined(separator: " · ")
        }
    }

    private var source: ArraySource<Row>?

    required init(values: RouteValues, shell: Shell) {
        super.init(values: values, shell: shell)
        title = tr("Plugins")
        guard let host = shell.resolve(PluginHost.self), !host.reports.isEmpty else {
            content = .text(tr("No plugin was found. Trellis looks in the build's plugins/, $XDG_DATA_HOME/trellis/plugins, <prefix>/lib/trellis/plugins and every --plugin-dir."))
            return
        }
        let reports = host.reports
        let source = ArraySource(reports.map(Row.init), id: \.id)
        self.source = source
        let container = TableContainer.checklist(source, searchable: false) { [weak self] change in
            self?.apply(change, host: host)
        }
        container.setSelection(reports.filter { host.settings.isEnabled($0.id) }.map { TableItemID($0.id) })
        content = .table(container)
        showApprovals(host)
        // Crashes, restarts and changes made elsewhere (trellis plugins --disable) show here.
        shell.bus.watchOnMainActor(PluginEvents.all, owner: self) { page, _ in page.reload(host) }
    }

    /// Enables the plugins ticked and disables those unticked, in a task (a plugin process may
    /// take up to its start deadline to answer; the window does not wait), then shows their new
    /// state.
    private func apply(_ change: SelectionChange, host: PluginHost) {
        let wanted = change.added.map { ($0.description, true) } + change.removed.map { ($0.description, false) }
        let changes = wanted.filter { id, enabled in host.settings.isEnabled(id) != enabled }
        guard !changes.isEmpty else { return }
        guard let logger = shell?.logger else { return }
        Task { [weak self] in
            for (id, enabled) in changes {
                do { try await host.setEnabled(id, enabled) } catch {
                    logger.error("plugin \(id): \(error)")
                }
            }
            self?.reload(host)
        }
    }

    private func reload(_ host: PluginHost) {
        source?.replace(all: host.reports.map(Row.init))
        showApprovals(host)
    }

    /// An Approve button for each plugin waiting for the user's approval; it asks first, in
    /// a dialog listing in full what the plugin asks for (the line is cut short on screen).
    private func showApprovals(_ host: PluginHost) {
        actions = host.reports.compactMap { report in
            guard case .awaitingApproval(let grants, let more) = report.state else { return nil }
            let name = PluginReport.escaped(report.manifest?.name ?? report.id)
            return PageAction(id: "approve:\(report.id)", label: tr("Approve %@", name),
                              confirmation: Self.question(report, name: name, grants: grants, more: more))
        }
    }

    /// What the Approve button of waiting plugin `report` asks.
    static func question(_ report: PluginReport, name: String, grants: [String], more: Bool) -> PageAction.Confirmation {
        let asks = grants.isEmpty ? [tr("nothing beyond its own events and pages")] : grants.map(PluginReport.escaped)
        let (version, folder) = (PluginReport.escaped(report.version), PluginReport.escaped(report.directory.path))
        var details = more ? tr("%@ %@, installed in %@, now also asks to:", name, version, folder)
            : tr("%@ %@, installed in %@, asks to:", name, version, folder)
        details += asks.map { "\n• \($0)" }.joined()
        if let manifest = report.manifest, let kernel = report.confinement ?? PluginConfinementReport.probe()?.applied(to: manifest.permissions.resources) {
            details += "\n\n" + tr("It runs in a process of its own, confined by: %@.", kernel.summary)
            details += kernel.missing.map { "\n" + tr("This system cannot confine: %@.", $0) }.joined()
        }
        details += "\n\n" + tr("Approve only a plugin you trust. You can disable it on this page at any time.")
        return PageAction.Confirmation(title: more ? tr("Let “%@” do more?", name) : tr("Let “%@” run?", name), details: details,
                                       confirmLabel: tr("Approve"))
    }

    override func perform(pageAction id: String) {
        guard id.hasPrefix("approve:"), let host = shell?.resolve(PluginHost.self), let logger = shell?.logger else { return }
        let plugin = String(id.dropFirst("approve:".count))
        // Approving starts the plugin, which may take its start deadline: the window does not wait.
        Task { [weak self] in
            do { try await host.approve(plugin) } catch { logger.error("plugin \(plugin): \(error)") }
            self?.reload(host)
        }
    }
}
