import TrellisCore

/// `/`: the sections of the demo.
final class HomePage: PageController {
    required init(values: RouteValues, shell: Shell) {
        super.init(values: values, shell: shell)
        title = "Trellis"
        let titles = DemoApp.sections.map(\.title)
        content = .table(TableContainer.list(of: titles, searchable: false, route: { item in
            DemoApp.sections[item.id.intValue ?? 0].path
        }, navigate: { [weak shell] path in try? shell?.navigate(to: path) }))
    }
}
