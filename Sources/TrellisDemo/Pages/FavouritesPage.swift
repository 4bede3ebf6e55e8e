import TrellisCore

/// `/favourites`: the favourite genres only, in catalog order, each a ticked row. Clicking a
/// row (anywhere on it) unticks it and takes the genre out of the favourites; it stays on the
/// page, unticked, so that a second click puts it back, until the page is shown again. The
/// header bar's "Add favourites" opens `/favourites/add`; a genre's own page adds or removes
/// it too.
final class FavouritesPage: PageController {
    /// A genre of the list: its catalog index is its identity.
    private struct Genre: CustomStringConvertible {
        let index: Int
        let name: String
        var description: String { name }
    }

    private let genres = ArraySource<Genre>([], id: { $0.index })
    private var container: TableContainer?

    required init(values: RouteValues, shell: Shell) {
        super.init(values: values, shell: shell)
        title = tr("Favourites")
        actions = [PageAction(id: "add", label: tr("Add favourites"), icon: "list-add-symbolic")]
        guard let model = DemoContext.model(of: shell) else { return }
        let container = TableContainer.checklist(genres, searchable: false) { [weak model] change in
            model?.apply(change)
        }
        container.emptyText = tr("No favourites yet. Press + to pick genres from the catalog.")
        self.container = container
        content = .table(container)
        reload(model)
    }

    /// Shown again (back from the catalog checklist or a genre): the favourites as they are now.
    override func didAppear() {
        if let model = DemoContext.model(of: shell) { reload(model) }
    }

    override func perform(pageAction id: String) {
        if id == "add" { try? shell?.navigate(to: "/favourites/add") }
    }

    private func reload(_ model: DemoModel) {
        let favourites = model.favourites.sorted()
        genres.replace(all: favourites.map { Genre(index: $0, name: model.catalog[$0]) })
        container?.setSelection(favourites.map { TableItemID($0) })
    }
}

/// `/favourites/add`: the whole catalog, searchable, with a box per genre ticked for the
/// favourites; a click anywhere on a row ticks or unticks it.
final class AddFavouritesPage: PageController {
    required init(values: RouteValues, shell: Shell) {
        super.init(values: values, shell: shell)
        title = tr("Add favourites")
        guard let model = DemoContext.model(of: shell) else { return }
        let container = TableContainer.checklist(ArraySource(model.catalog)) { [weak model] change in
            model?.apply(change)
        }
        container.setSelection(model.favourites.sorted().map { TableItemID($0) })
        content = .table(container)
    }
}

extension DemoModel {
    /// Ticked genres become favourites, unticked ones stop being favourites (a checklist's
    /// change, whose item identities are catalog indexes).
    func apply(_ change: SelectionChange) {
        for item in change.added { if let index = item.intValue { setFavourite(index, true) } }
        for item in change.removed { if let index = item.intValue { setFavourite(index, false) } }
    }
}
