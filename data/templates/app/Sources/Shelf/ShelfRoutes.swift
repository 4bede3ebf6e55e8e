import TrellisCore

/// The app's routes. The window calls this once with its shell; each test with a shell of its own.
@MainActor
public enum ShelfRoutes {
    public static func install(on shell: Shell) throws {
        try shell.route("/", to: ItemsPage.self, isPublic: true)
        try shell.route("/items/:id", to: ItemPage.self, isPublic: true)
    }
}

/// `/`: the items, searchable (Ctrl+F); a row opens `/items/:id`.
final class ItemsPage: PageController {
    static let items = ["Hammer", "Screwdriver", "Tape measure"]

    required init(values: RouteValues, shell: Shell) {
        super.init(values: values, shell: shell)
        title = "Shelf"
        content = .table(TableContainer.list(of: Self.items, route: { item in "/items/\(item.id)" },
                                             navigate: { [weak shell] path in try? shell?.navigate(to: path) }))
    }
}

/// `/items/:id`: one item (`id` is its index in the list).
final class ItemPage: PageController {
    required init(values: RouteValues, shell: Shell) {
        super.init(values: values, shell: shell)
        let index = (try? values.parameter("id", as: Int.self)) ?? -1
        title = ItemsPage.items.indices.contains(index) ? ItemsPage.items[index] : "No such item"
        content = .text("Item \(index + 1) of \(ItemsPage.items.count)")
    }
}
