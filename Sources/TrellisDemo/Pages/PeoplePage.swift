import TrellisCore

/// `/people`: first name, last name and age of each person (a `KeyValueCellProvider`).
final class PeoplePage: PageController {
    required init(values: RouteValues, shell: Shell) {
        super.init(values: values, shell: shell)
        title = tr("People")
        let people = DemoContext.model(of: shell)?.people ?? []
        content = .table(TableContainer.records(ArraySource(people), keys: ["firstName", "lastName", "age"]))
    }
}
