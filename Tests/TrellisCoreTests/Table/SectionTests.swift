import Testing
import TrellisCore

@Suite("Sections")
@MainActor
struct SectionTests {
    @Test("a titled section with rows starts with a header row; untitled and empty ones have none")
    func headers() {
        let source = StaticSource([
            ("Фантастика", ["Киберпанк", "Космоопера"]),
            (nil, ["Без раздела"]),
            ("Пусто", []),
            ("Проза", ["Поэзия"]),
        ])
        let container = TableContainer(source: source)
        #expect(container.texts() == ["# Фантастика", "Киберпанк", "Космоопера", "Без раздела", "# Проза", "Поэзия"])
        #expect(container.flatRow(at: 4) == .header(title: "Проза", section: 3))
        #expect(container.flatIndex(of: TableIndexPath(section: 3, row: 0)) == 5)
        #expect(container.flatIndex(of: TableIndexPath(section: 0, row: 1)) == 2)
        #expect(container.flatRow(at: 6) == nil)
        #expect(container.flatRow(at: -1) == nil)
    }

    @Test("changes within sections are announced at their flat positions")
    func changesWithinSections() throws {
        let source = ArraySource(["Бизнес", "Бокс", "Проза", "Психология", "Юмор"], sectionedBy: { String($0.prefix(1)) })
        let container = TableContainer(source: source)
        let recorder = FlatRecorder(container)
        #expect(container.texts() == ["# Б", "Бизнес", "Бокс", "# П", "Проза", "Психология", "# Ю", "Юмор"])

        try source.insert("Поэзия", at: TableIndexPath(section: 1, row: 1))
        #expect(recorder.batches.last == [FlatChange(position: 5, removed: 0, added: 1)])

        try source.remove(at: TableIndexPath(section: 2, row: 0))
        #expect(recorder.batches.last == [FlatChange(position: 7, removed: 2, added: 0)], "the emptied section loses its header too")

        source.insert("Арт")
        #expect(recorder.batches.last == [FlatChange(position: 7, removed: 0, added: 2)], "a new section brings its header")

        try source.update(at: TableIndexPath(section: 0, row: 1), with: "Бридж")
        #expect(recorder.batches.last == [FlatChange(position: 2, removed: 1, added: 1)])

        try source.move(from: TableIndexPath(section: 1, row: 0), to: TableIndexPath(section: 1, row: 2))
        #expect(Array(recorder.batches.suffix(2)) == [
            [FlatChange(position: 4, removed: 1, added: 0)], [FlatChange(position: 6, removed: 0, added: 1)],
        ])
        #expect(container.texts() == ["# Б", "Бизнес", "Бридж", "# П", "Поэзия", "Психология", "Проза", "# А", "Арт"])
    }

    @Test("an update moving a row to another section moves it in the flat model")
    func updateAcrossSections() throws {
        let source = ArraySource(["Бизнес", "Проза"], sectionedBy: { String($0.prefix(1)) })
        let container = TableContainer(source: source)
        let recorder = FlatRecorder(container)
        try source.update(at: TableIndexPath(section: 0, row: 0), with: "Поэзия")
        #expect(container.texts() == ["# П", "Проза", "Поэзия"])
        #expect(recorder.changes == [
            FlatChange(position: 0, removed: 2, added: 0),
            FlatChange(position: 2, removed: 0, added: 1),
            FlatChange(position: 2, removed: 1, added: 1),
        ])
    }

    @Test("a search hides the headers of sections without matches")
    func searchHidesEmptySections() {
        let source = ArraySource(["Бизнес", "Бокс", "Проза", "Психология"], sectionedBy: { String($0.prefix(1)) })
        let container = TableContainer(source: source, searchable: true)
        container.searchText = "пси"
        #expect(container.texts() == ["# П", "Психология"])
        #expect(container.flatIndex(of: TableIndexPath(section: 0, row: 0)) == nil)
        #expect(container.flatIndex(of: TableIndexPath(section: 1, row: 1)) == 1)
    }

    @Test("inserting and deleting whole sections announces their rows and header")
    func wholeSections() {
        let source = StaticSource([("А", ["Арт"]), ("В", ["Вокал"])])
        let container = TableContainer(source: source)
        let recorder = FlatRecorder(container)
        source.sections.insert(("Б", ["Балет", "Бокс"]), at: 1)
        source.changes.announce(.insertSection(1))
        #expect(container.texts() == ["# А", "Арт", "# Б", "Балет", "Бокс", "# В", "Вокал"])
        source.sections.remove(at: 0)
        source.changes.announce(.deleteSection(0, removedIDs: [TableItemID("Арт")]))
        #expect(recorder.changes == [FlatChange(position: 2, removed: 0, added: 3), FlatChange(position: 0, removed: 2, added: 0)])
        #expect(container.texts() == ["# Б", "Балет", "Бокс", "# В", "Вокал"])
    }
}
