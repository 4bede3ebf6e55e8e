import TrellisCore
import TrellisStore

/// `/people`: first name, last name and age of each person in the store, by last name (a
/// `KeyValueCellProvider` over a fetched source).
final class PeoplePage: PageController {
    required init(values: RouteValues, shell: Shell) {
        super.init(values: values, shell: shell)
        title = tr("People")
        guard let store = shell.resolve(StoreBox.self)?.store else {
            content = .text(tr("No store is open."))
            return
        }
        do {
            let request = FetchRequest(entityName: "Person", sortKeys: [SortKey("lastName"), SortKey("firstName")])
            let source = try FetchedSource(request: request, context: store.newContext())
            content = .table(TableContainer.records(source, keys: ["firstName", "lastName", "age"]))
        } catch {
            content = .text(tr("The people cannot be read: %@", String(describing: error)))
        }
    }
}
