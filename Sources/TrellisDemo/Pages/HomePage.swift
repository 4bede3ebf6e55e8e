import TrellisCore

/// `/`: the sections of the demo.
final class HomePage: PageController {
    /// Each section's title (translated) and path.
    static var sections: [(title: String, path: String)] {
        [(tr("Catalog"), "/catalog"), (tr("Favourites"), "/favourites"), (tr("Notes"), "/notes"),
         (tr("People"), "/people"), (tr("Plugins"), "/plugins"), (tr("Event log"), "/events")]
    }

    required init(values: RouteValues, shell: Shell) {
        super.init(values: values, shell: shell)
        title = "Trellis"
        let titles = Self.sections.map(\.title)
        content = .table(TableContainer.list(of: titles, searchable: false, route: { item in
            Self.sections[item.id.intValue ?? 0].path
        }, navigate: { [weak shell] path in try? shell?.navigate(to: path) }))
    }
}
