import TrellisCore

/// `/`: the sections of the demo (the shell's ``Shell/sections``), each row opening its section.
final class HomePage: PageController {
    required init(values: RouteValues, shell: Shell) {
        super.init(values: values, shell: shell)
        title = "Trellis"
        let sections = shell.sections
        content = .table(TableContainer.list(of: sections.map(\.title), searchable: false, route: { item in
            sections[item.id.intValue ?? 0].path
        }, navigate: { [weak shell] path in try? shell?.navigate(to: path) }))
    }
}
