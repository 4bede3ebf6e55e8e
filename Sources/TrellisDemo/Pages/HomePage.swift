import TrellisCore

/// `/`: the sections of the demo.
final class HomePage: PageController {
    static let sections: [(title: String, path: String)] = [
        ("Catalog", "/catalog"), ("Favourites", "/favourites"), ("Notes", "/notes"),
        ("People", "/people"), ("Plugins", "/plugins"), ("Event log", "/events"),
    ]

    required init(values: RouteValues, shell: Shell) {
        super.init(values: values, shell: shell)
        title = "Trellis"
        let titles = Self.sections.map { tr($0.title) }
        content = .table(TableContainer.list(of: titles, searchable: false, route: { item in
            Self.sections[item.id.intValue ?? 0].path
        }, navigate: { [weak shell] path in try? shell?.navigate(to: path) }))
    }
}
