import TrellisCore

/// `/plugins`: every plugin found, with its version, state and the reason of any failure
/// (the window's form of `trellis plugins`).
final class PluginsPage: PageController {
    struct Row: CustomStringConvertible {
        let report: PluginReport
        var description: String { report.id }
    }

    required init(values: RouteValues, shell: Shell) {
        super.init(values: values, shell: shell)
        title = tr("Plugins")
        let reports = shell.resolve(PluginHost.self)?.reports ?? []
        guard !reports.isEmpty else {
            content = .text(tr("No plugin was found. Trellis looks in the build's plugins/, $XDG_DATA_HOME/trellis/plugins, <prefix>/lib/trellis/plugins and every --plugin-dir."))
            return
        }
        let rows: [JSONValue] = reports.map { report in
            [
                "plugin": .string(report.manifest?.name ?? report.id),
                "version": .string(report.manifest?.version ?? "?"),
                "state": .string(report.stateWord),
                "reason": .string(report.state.failure.map { String(describing: $0) } ?? report.manifest?.description ?? ""),
            ]
        }
        content = .table(TableContainer.records(ArraySource(rows), keys: ["plugin", "version", "state", "reason"]))
    }
}
