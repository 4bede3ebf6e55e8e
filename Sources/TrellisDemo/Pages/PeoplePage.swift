import TrellisCore
import TrellisStore

/// `/people`: first name, surname and age of each person in the store, in columns (a
/// `KeyValueCellProvider` over a fetched source), by surname until a header is clicked,
/// which sorts by that column in the store.
final class PeoplePage: PageController {
    required init(values: RouteValues, shell: Shell) {
        super.init(values: values, shell: shell)
        title = tr("People")
        guard let store = shell.resolve(StoreBox.self)?.store else {
            content = .text(tr("No store is open."))
            return
        }
        do {
            let request = RecordRequest<Person>(sortKeys: [.ascending("lastName"), .ascending("firstName")])
            let source = try FetchedSource(request: request, context: store.newContext())
            content = .table(TableContainer.records(source, columns: [
                TableColumn(key: "firstName", title: tr("First name")),
                TableColumn(key: "lastName", title: tr("Surname")),
                TableColumn(key: "age", title: tr("Age")),
            ]))
        } catch {
            content = .text(tr("The people cannot be read: %@", String(describing: error)))
        }
    }
}
