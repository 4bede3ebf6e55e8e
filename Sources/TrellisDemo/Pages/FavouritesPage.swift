import TrellisCore

/// `/favourites`: the catalog with a checkbox per genre; ticked genres are the favourites
/// (multiple selection through a `SelectionCellProvider`).
final class FavouritesPage: PageController {
    required init(values: RouteValues, shell: Shell) {
        super.init(values: values, shell: shell)
        title = tr("Favourites")
        guard let model = DemoContext.model(of: shell) else { return }
        let container = TableContainer.checklist(ArraySource(model.catalog)) { [weak model] change in
            guard let model else { return }
            for item in change.added { if let index = item.intValue { model.setFavourite(index, true) } }
            for item in change.removed { if let index = item.intValue { model.setFavourite(index, false) } }
        }
        container.setSelection(model.favourites.sorted().map { TableItemID($0) })
        content = .table(container)
    }
}
