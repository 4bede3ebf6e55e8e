import TrellisCore

/// The automation of tables shown as columns (see `GtkFrontend+Automation.swift`):
///
/// | command | effect |
/// | --- | --- |
/// | `sort KEY [desc]` | sorts by column KEY as a click on its header does (ascending unless `desc`) |
///
/// and, in `dump` of such a table, `columns` (the headers' titles), `sort` (the column shown
/// as sorted and its direction) and each row's `cells`.
extension GtkFrontend {
    /// Runs `sort KEY [desc]` and answers once the table is sorted.
    func automateSort(_ argument: String, _ reply: @escaping (JSONValue) -> Void) {
        func fail(_ message: String) { reply(["ok": false, "error": .string(message)]) }
        let parts = argument.split(separator: " ").map(String.init)
        guard let key = parts.first else { return fail("sort needs a column key") }
        guard let view = currentView?.list as? ColumnTableView, let container = currentView?.container,
              let columns = container.columns else { return fail("the page on top shows no columns") }
        guard let index = columns.firstIndex(where: { $0.key == key }) else {
            return fail("no column \(key) (the columns: \(columns.map(\.key).joined(separator: ", ")))")
        }
        let ascending = parts.dropFirst().first != "desc"
        view.sort(column: index, ascending: ascending)
        guard container.sortOrder == ColumnSort(key: key, ascending: ascending) else {
            return fail("the table was not sorted by \(key) (see the log)")
        }
        reply(["ok": true])
    }

    /// Adds what a column view shows to a `dump`: its titles, its sort and the rows' cells.
    func columnSnapshot(into result: inout JSONValue) {
        guard let view = currentView?.list as? ColumnTableView else { return }
        let titles = view.titles
        result["columns"] = .array(titles.map { .string($0) })
        result["sort"] = view.sortedColumn.map { sorted in
            ["column": .string(titles[sorted.index]), "ascending": .bool(sorted.ascending)]
        } ?? .null
        result["cells"] = .array(view.cellTexts().map { row in .array(row.cells.map { .string($0) }) })
    }
}
