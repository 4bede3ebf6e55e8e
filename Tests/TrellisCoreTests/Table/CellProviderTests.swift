import Testing
import TrellisCore

private struct CodablePerson: Codable {
    var firstName: String
    var lastName: String
    var age: Int
}

private final class StoredPerson: KeyValueCoding {
    let values: [String: JSONValue]
    init(_ values: [String: JSONValue]) { self.values = values }
    func value(forKey key: String) -> JSONValue? { values[key] }
}

private struct Genre: CustomStringConvertible {
    var name: String
    var description: String { "Жанр: \(name)" }
}

@Suite("Cell providers")
@MainActor
struct CellProviderTests {
    private let provider = KeyValueCellProvider(keys: ["firstName", "lastName", "age"])
    private let unselected = CellContext(isSelected: false)

    private func columns(of value: Any) -> [String] {
        provider.cell(for: TableItem(id: TableItemID(0), value: value), context: unselected).columns
    }

    @Test("KeyValueCellProvider reads JSON objects and dictionaries by key")
    func dictionaries() {
        let json: JSONValue = ["firstName": "Ада", "lastName": "Лавлейс", "age": 36]
        #expect(columns(of: json) == ["Ада", "Лавлейс", "36"])
        #expect(columns(of: ["firstName": "Ада", "age": .number(36.5)] as [String: JSONValue]) == ["Ада", "", "36.5"])
        #expect(columns(of: ["firstName": "Алан", "lastName": "Тьюринг", "age": 41] as [String: Any]) == ["Алан", "Тьюринг", "41"])
    }

    @Test("KeyValueCellProvider reads Codable values through their encoding")
    func codable() {
        #expect(columns(of: CodablePerson(firstName: "Грейс", lastName: "Хоппер", age: 85)) == ["Грейс", "Хоппер", "85"])
    }

    @Test("KeyValueCellProvider reads KeyValueCoding objects (store objects)")
    func keyValueCoding() {
        let person = StoredPerson(["firstName": "Кэтрин", "lastName": "Джонсон", "age": .null])
        #expect(columns(of: person) == ["Кэтрин", "Джонсон", ""])
    }

    @Test("KeyValueCellProvider shows empty columns for values it cannot read")
    func unsupported() {
        #expect(columns(of: 42) == ["", "", ""])
    }

    @Test("KeyValueCellProvider renders non-string values as text")
    func valueText() {
        #expect(KeyValueCellProvider.text(of: true) == "true")
        #expect(KeyValueCellProvider.text(of: 3) == "3")
        #expect(KeyValueCellProvider.text(of: ["a", 1]) == #"["a",1]"#)
    }

    @Test("DescriptionCellProvider shows the description in one column")
    func description() {
        let cell = DescriptionCellProvider().cell(for: TableItem(id: TableItemID(0), value: Genre(name: "Мистика")), context: unselected)
        #expect(cell.columns == ["Жанр: Мистика"])
        #expect(cell.checkbox == nil)
        #expect(cell.accessibleLabel == "Жанр: Мистика")
    }

    @Test("SelectionCellProvider adds a checkbox showing the selection to the wrapped cell")
    func selection() {
        let provider = SelectionCellProvider(wrapping: DescriptionCellProvider())
        let item = TableItem(id: TableItemID(0), value: "Мистика")
        #expect(provider.cell(for: item, context: CellContext(isSelected: true)) == Cell(columns: ["Мистика"], checkbox: true))
        #expect(provider.cell(for: item, context: unselected) == Cell(columns: ["Мистика"], checkbox: false))
    }

    @Test("the container marks selected cells and ticks their checkboxes")
    func containerMarksSelection() throws {
        let container = TableContainer.checklist(ArraySource(["Мистика", "Проза"]))
        try container.toggle(flatIndex: 1)
        guard case .item(_, let cell) = container.flatRow(at: 1) else {
            Issue.record("row 1 is not an item")
            return
        }
        #expect(cell.checkbox == true)
        #expect(cell.isSelected)
        #expect(cell.accessibleLabel == "Проза")
    }
}
