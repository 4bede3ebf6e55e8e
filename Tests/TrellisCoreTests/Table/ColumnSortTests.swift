import Testing
import TrellisCore

private struct Member: Codable {
    var name: String
    var age: Int?
}

/// A source that cannot sort.
@MainActor
private final class FixedSource: TableSource {
    let changes = TableChangeObservers()
    var numberOfSections: Int { 1 }
    func numberOfRows(inSection section: Int) -> Int { 1 }
    func item(at path: TableIndexPath) -> TableItem { TableItem(id: TableItemID(0), value: Member(name: "Ада", age: 36)) }
    func title(forSection section: Int) -> String? { nil }
}

@Suite("Columns: declared columns and sorting by a column")
@MainActor
struct ColumnSortTests {
    private let columns = [TableColumn(key: "name", title: "Имя"), TableColumn(key: "age", title: "Возраст")]
    private let members = [
        Member(name: "Вера", age: 30), Member(name: "Ада", age: 36), Member(name: "Борис", age: 30),
        Member(name: "Глеб", age: nil), Member(name: "Дина", age: 9),
    ]

    @Test("records(columns:) declares titled columns; keys alone declare none (a list)")
    func declaredColumns() {
        let table = TableContainer.records(ArraySource(members), columns: columns)
        #expect(table.columns == columns)
        #expect(table.columnTitles == ["Имя", "Возраст"])
        #expect(table.texts().first == "Вера | 30")
        #expect(TableContainer.records(ArraySource(members), keys: ["name"]).columns == nil)
        #expect(TableContainer(source: ArraySource(members), cells: KeyValueCellProvider(columns: columns)).columns == columns)
    }

    @Test("an ArraySource sorts by a column stably, numbers as numbers, missing values first")
    func stableArraySort() {
        let source = ArraySource(members)
        source.sort(by: "age", ascending: true)
        #expect(source.elements.map(\.name) == ["Глеб", "Дина", "Вера", "Борис", "Ада"], "9 before 30; Вера stays before Борис")
        source.sort(by: "age", ascending: false)
        #expect(source.elements.map(\.name) == ["Ада", "Вера", "Борис", "Дина", "Глеб"], "ties keep their order descending too")
        source.sort(by: "name", ascending: true)
        #expect(source.elements.map(\.name) == ["Ада", "Борис", "Вера", "Глеб", "Дина"])
    }

    @Test("identities stay with their elements and each section is sorted on its own")
    func identitiesAndSections() {
        let source = ArraySource(members, sectionedBy: { ($0.age ?? 0) >= 30 ? "30+" : "young" })
        source.sort(by: "name", ascending: false)
        #expect(source.title(forSection: 0) == "30+")
        let names = (0..<source.numberOfRows(inSection: 0)).map { source.element(at: TableIndexPath(row: $0)).name }
        #expect(names == ["Вера", "Борис", "Ада"])
        #expect(source.item(at: TableIndexPath(row: 2)).id == TableItemID(1), "Ада keeps the serial number she came with")
    }

    @Test("the container sorts through the source: one change of every row, the selection kept, the order remembered")
    func containerSort() throws {
        let table = TableContainer.records(ArraySource(members), columns: columns)
        try table.select(flatIndex: 1)  // Ада
        var delivered: [[FlatChange]] = []
        let token = table.onFlatChanges { delivered.append($0) }
        try table.sort(by: "name")
        #expect(delivered == [[FlatChange(position: 0, removed: 5, added: 5)]])
        #expect(table.texts() == ["Ада | 36 *", "Борис | 30", "Вера | 30", "Глеб | ", "Дина | 9"])
        #expect(table.sortOrder == ColumnSort(key: "name", ascending: true))
        try table.sort(by: "age", ascending: false)
        #expect(table.texts().first == "Ада | 36 *")
        #expect(table.sortOrder?.description == "age ▼")
        token.cancel()
    }

    @Test("after a sort, an inserted element goes to its place in that order")
    func insertAfterSort() {
        let source = ArraySource(members)
        source.sort(by: "age", ascending: true)
        let path = source.insert(Member(name: "Ева", age: 31))
        #expect(path == TableIndexPath(row: 4))
    }

    @Test("sorting by a column the table lacks, or a source that cannot sort, is refused with the reason")
    func refusals() {
        let table = TableContainer.records(ArraySource(members), columns: columns)
        #expect(throws: TableSortError.unknownColumn(key: "surname", columns: ["name", "age"])) {
            try table.sort(by: "surname")
        }
        let fixed = TableContainer(source: FixedSource(), cells: KeyValueCellProvider(columns: columns))
        #expect(throws: TableSortError.notSortable(source: "FixedSource")) { try fixed.sort(by: "age") }
        #expect(table.sortOrder == nil)
    }
}

/// Columns that read their rows through key paths (no key-value coding).
@Suite("Columns: typed columns")
@MainActor
struct TypedColumnTests {
    private struct Reader {
        var name: String
        var age: Int
        var score: Double
    }

    private let readers = [
        Reader(name: "Вера", age: 30, score: 2.5), Reader(name: "Ада", age: 36, score: 1),
        Reader(name: "Борис", age: 30, score: 3), Reader(name: "Глеб", age: 12, score: 0.5),
    ]
    private let columns = [TableColumn(key: "name", title: "Имя", value: \Reader.name),
                           TableColumn(key: "age", title: "Возраст", value: \Reader.age),
                           TableColumn(key: "score", title: "Счёт", value: \Reader.score)]

    @Test("cells show the typed values (a whole number without a fraction), with no key-value coding")
    func cells() {
        let table = TableContainer.records(ArraySource(readers), columns: columns)
        #expect(table.texts() == ["Вера | 30 | 2.5", "Ада | 36 | 1", "Борис | 30 | 3", "Глеб | 12 | 0.5"])
    }

    @Test("the container sorts an ArraySource of the column's rows by its typed values, stably, both ways")
    func sorting() throws {
        let source = ArraySource(readers)
        let table = TableContainer.records(source, columns: columns)
        try table.sort(by: "age")
        #expect(source.elements.map(\.name) == ["Глеб", "Вера", "Борис", "Ада"], "ties keep their order")
        try table.sort(by: "age", ascending: false)
        #expect(source.elements.map(\.name) == ["Ада", "Вера", "Борис", "Глеб"])
        try table.sort(by: "name")
        #expect(source.elements.map(\.name) == ["Ада", "Борис", "Вера", "Глеб"])
        #expect(source.item(at: TableIndexPath(row: 0)).id == TableItemID(1), "Ада keeps her serial number")
        let path = source.insert(Reader(name: "Бэлла", age: 20, score: 1))
        #expect(path == TableIndexPath(row: 2), "a later insert goes to its place in the typed order (after Борис)")
    }

    @Test("rows over many chunks and sections move to their places with their identities, both ways, and back")
    func manyRows() throws {
        // 5,000 rows fill several chunks of each section's storage (1,024 rows each); names in an
        // order unrelated to it, sharing a long prefix, and each twice (ties keep their order).
        let count = 5_000
        let many = (0..<count).map { Reader(name: "Читатель \(($0 * 7_919) % (count / 2))", age: $0 % 3, score: Double($0)) }
        let source = ArraySource(many, sectionedBy: { $0.age == 0 ? "ноль" : "не ноль" })
        let table = TableContainer.records(source, columns: columns)
        for ascending in [true, false, true] {
            try table.sort(by: "name", ascending: ascending)
            for section in 0..<source.numberOfSections {
                let rows = (0..<source.numberOfRows(inSection: section)).map { TableIndexPath(section: section, row: $0) }
                let shown = rows.map { source.element(at: $0) }
                // Swift's sort is stable: ties in their original order, as the source keeps them.
                let expected = many.filter { ($0.age == 0 ? "ноль" : "не ноль") == source.title(forSection: section) }
                    .sorted { a, b in
                        ascending ? a.name.utf8.lexicographicallyPrecedes(b.name.utf8) : b.name.utf8.lexicographicallyPrecedes(a.name.utf8)
                    }
                #expect(shown.map(\.name) == expected.map(\.name), "section \(section), ascending \(ascending)")
                // The score is each row's original position, and its identity the serial number it came with.
                #expect(rows.allSatisfy { source.item(at: $0).id == TableItemID(Int(source.element(at: $0).score)) })
            }
        }
        #expect(source.numberOfRows(inSection: 0) + source.numberOfRows(inSection: 1) == count, "no row lost or doubled")
    }

    @Test("rows of which only some are the typed column's fall back to the key, every row kept")
    func mixedRows() throws {
        let rows: [Any] = [Reader(name: "Вера", age: 30, score: 2.5), ["name": "Дина"] as JSONValue,
                           Reader(name: "Борис", age: 30, score: 3), ["name": "Ада"] as JSONValue]
        let source = ArraySource(rows)
        try TableContainer.records(source, columns: columns).sort(by: "name")
        let names = source.elements.map { row in (row as? Reader)?.name ?? (row as? JSONValue)?["name"]?.stringValue }
        // By key, a Reader (not Encodable) has no name: missing values first, in their order.
        #expect(names == ["Вера", "Борис", "Ада", "Дина"])
    }

    @Test("a typed column over another row type, or rows it cannot read, falls back to the key")
    func otherRows() throws {
        let json: [JSONValue] = [["name": "Вера", "age": 30], ["name": "Ада", "age": 36]]
        let table = TableContainer.records(ArraySource(json), columns: columns)
        #expect(table.texts() == ["Вера | 30 | ", "Ада | 36 | "])
        try table.sort(by: "name")
        #expect(table.texts().first == "Ада | 36 | ")
    }
}
