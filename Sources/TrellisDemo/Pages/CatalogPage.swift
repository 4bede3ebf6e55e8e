import TrellisCore

/// `/catalog`: every genre of the catalog, searchable; a row opens `/catalog/:id`.
final class CatalogPage: PageController {
    required init(values: RouteValues, shell: Shell) {
        super.init(values: values, shell: shell)
        title = tr("Catalog")
        let model = DemoContext.model(of: shell)
        let callbacks = StandardCallbacks(route: { "/catalog/\($0.id)" },
                                          navigate: { [weak shell] path in try? shell?.navigate(to: path) })
        let source: any TableSource
        if let rows = model?.syntheticRows {
            source = SyntheticSource(count: rows)
        } else {
            source = ArraySource(model?.catalog ?? [])
        }
        let container = TableContainer.list(source, callbacks: callbacks)
        if let search = values.parameters["q"] { container.searchText = search }
        content = .table(container)
    }
}

/// `/catalog/:id`: one genre, with a button to add it to (or remove it from) the favourites.
final class GenrePage: PageController {
    private var index = -1

    required init(values: RouteValues, shell: Shell) {
        super.init(values: values, shell: shell)
        guard let model = DemoContext.model(of: shell), let index = Int(values.parameters["id"] ?? ""),
              model.catalog.indices.contains(index) else {
            title = tr("Unknown genre")
            content = .text(tr("There is no genre number %@", values.parameters["id"] ?? ""))
            return
        }
        self.index = index
        title = model.catalog[index]
        show(model)
        shell.bus.watchOnMainActor(DemoModel.favouritesChanged, owner: self) { page, _ in
            guard let model = DemoContext.model(of: page.shell) else { return }
            page.show(model)
        }
    }

    private func show(_ model: DemoModel) {
        let favourite = model.favourites.contains(index)
        var fields: [Form.Field] = [
            .init(id: "name", label: tr("Genre"), style: .readOnly, value: model.catalog[index]),
            .init(id: "position", label: tr("Position in the catalog"), style: .readOnly,
                  value: tr("%@ of %@", String(index + 1), String(model.catalog.count))),
        ]
        // A name the catalog lists more than once: where else it is, by position.
        let others = model.positions(of: index).filter { $0 != index + 1 }
        if !others.isEmpty {
            fields.append(.init(id: "elsewhere", label: tr("Also in the catalog at"), style: .readOnly,
                                value: others.map(String.init).joined(separator: ", ")))
        }
        let form = Form(fields: fields,
                        actions: [.init(id: "favourite", label: favourite ? tr("Remove from favourites") : tr("Add to favourites"))])
        form.onAction = { [weak self] _, _ in
            guard let self, let model = DemoContext.model(of: self.shell) else { return }
            model.setFavourite(self.index, !model.favourites.contains(self.index))
        }
        content = .form(form)
    }
}
