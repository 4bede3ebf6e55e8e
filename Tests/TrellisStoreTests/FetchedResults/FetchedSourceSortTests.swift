import Testing
import TrellisCore
@testable import TrellisStore

@MainActor
@Suite("Fetched source: sorting by a column in the store")
struct FetchedSourceSortTests {
    private func names(_ source: FetchedSource) -> [String] {
        (0..<source.numberOfRows(inSection: 0)).map {
            source.item(at: TableIndexPath(row: $0)).value(as: ManagedObject.self)?.value(forKey: "firstName")?.stringValue ?? "?"
        }
    }

    @Test("sorting changes the request's sort keys (the column first, the earlier keys after) and fetches again")
    func sortsInSQL() throws {
        let fixture = try StoreFixture()
        let context = fixture.store.newContext()
        for (first, last, age) in [("Вера", "Б", 30), ("Ада", "В", 36), ("Борис", "А", 30), ("Дина", "Г", 9)] {
            try StoreFixture.insertPerson(context, first, last, age: age)
        }
        try context.save()
        let source = try FetchedSource(request: FetchRequest(entityName: "Person", sortKeys: [.ascending("lastName")]),
                                       context: context)
        let table = TableContainer.records(source, columns: [TableColumn(key: "firstName", title: "Имя"),
                                                             TableColumn(key: "age", title: "Возраст")])
        var announced: [TableChange] = []
        let token = source.changes.observe { announced.append($0) }
        try table.sort(by: "age")
        #expect(announced == [.reload])
        #expect(source.results.request.sortKeys == [.ascending("age"), .ascending("lastName")])
        #expect(names(source) == ["Дина", "Борис", "Вера", "Ада"], "ties (30) keep the earlier order, by surname")
        try table.sort(by: "age", ascending: false)
        #expect(source.results.request.sortKeys == [.descending("age"), .ascending("lastName")])
        #expect(names(source) == ["Ада", "Борис", "Вера", "Дина"])
        let texts = (0..<table.flatCount).compactMap { index -> String? in
            guard case .item(_, let cell)? = table.flatRow(at: index) else { return nil }
            return cell.text
        }
        #expect(texts == ["Ада | 36", "Борис | 30", "Вера | 30", "Дина | 9"])
        token.cancel()
    }

    @Test("a key the entity lacks is refused by the store, naming it, and the rows stay")
    func unknownKey() throws {
        let fixture = try StoreFixture()
        let context = fixture.store.newContext()
        try StoreFixture.insertPerson(context, "Ада", "Лавлейс", age: 36)
        try context.save()
        let source = try FetchedSource(request: FetchRequest(entityName: "Person"), context: context)
        let table = TableContainer(source: source, cells: KeyValueCellProvider(keys: ["firstName"]))
        do {
            try table.sort(by: "nickname")
            Issue.record("sorting by a missing key succeeded")
        } catch {
            guard case .failed(let key, let reason) = error else {
                Issue.record("\(error)")
                return
            }
            #expect(key == "nickname")
            #expect(reason.contains("nickname"), "\(reason)")
        }
        #expect(table.flatCount == 1)
        #expect(table.sortOrder == nil)
    }

    @Test("an order no index serves reads four pages per query: from the first page, and reading on from a page")
    func readsAhead() throws {
        let fixture = try StoreFixture()
        let context = fixture.store.newContext()
        for number in 0..<95 {
            try StoreFixture.insertPerson(context, "p\(number)", "s\(number)", age: number)
        }
        try context.save()
        let source = try FetchedSource(request: FetchRequest(entityName: "Person", batchSize: 10), context: context)
        try source.sort(by: "age", ascending: false)  // no index on age: each query sorts every row
        for row in 0..<11 { _ = source.item(at: TableIndexPath(row: row)) }
        #expect(source.results.pages.loadedRowCount == 40, "pages 0 to 3 in one query")
        #expect(source.item(at: TableIndexPath(row: 49)).value(as: ManagedObject.self)?.value(forKey: "age") == 45)
        #expect(source.results.pages.loadedRowCount == 80, "reading on from page 3: pages 4 to 7")
        _ = source.item(at: TableIndexPath(row: 90))
        #expect(source.results.pages.loadedRowCount == 85, "a jump reads one page: the last, five rows")
    }
}
