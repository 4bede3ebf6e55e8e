import Testing
import TrellisCore

private struct Person: Sendable, Equatable {
    var id: Int
    var name: String
}

@Suite("ArraySource")
@MainActor
struct ArraySourceTests {
    @Test("plain elements get serial identities: their first positions, kept through inserts")
    func serialIdentities() throws {
        let source = ArraySource(["Проза", "Юмор", "Проза"])
        #expect((0..<3).map { source.item(at: TableIndexPath(row: $0)).id } == [TableItemID(0), TableItemID(1), TableItemID(2)])

        try source.insert("Мистика", at: 0)
        #expect(source.item(at: TableIndexPath(row: 0)).id == TableItemID(3))
        #expect(source.item(at: TableIndexPath(row: 1)).id == TableItemID(0))
        #expect(source.item(at: TableIndexPath(row: 3)).id == TableItemID(2), "equal elements keep distinct identities")
        #expect(source.indexPath(of: TableItemID(2)) == TableIndexPath(row: 3))
    }

    @Test("an id closure gives identities that survive replace(all:)")
    func keyedIdentities() {
        let source = ArraySource([Person(id: 7, name: "Ада"), Person(id: 9, name: "Алан")], id: \.id)
        #expect(source.item(at: TableIndexPath(row: 1)).id == TableItemID(9))
        source.replace(all: [Person(id: 9, name: "Алан Тьюринг")])
        #expect(source.item(at: TableIndexPath(row: 0)).id == TableItemID(9))
        #expect(source.indexPath(of: TableItemID(9)) == TableIndexPath(row: 0))
        #expect(source.indexPath(of: TableItemID(7)) == nil)
    }

    @Test("a set is sorted by the given key and each element is its own identity")
    func sortedSet() {
        let source = ArraySource(Set(["Юмор", "Бизнес", "Проза"]), sortedBy: { $0 })
        #expect(source.elements == ["Бизнес", "Проза", "Юмор"])
        #expect(source.item(at: TableIndexPath(row: 1)).id == TableItemID("Проза"))
    }

    @Test("sections by key come in the order keys first occur and are titled by the key")
    func sectionsByKey() {
        let source = ArraySource(["Фэнтези", "Мистика", "Фантастика", "Магия"], sectionedBy: { String($0.prefix(1)) })
        #expect(source.numberOfSections == 2)
        #expect(source.title(forSection: 0) == "Ф")
        #expect(source.title(forSection: 1) == "М")
        #expect(source.numberOfRows(inSection: 0) == 2)
        #expect(source.element(at: TableIndexPath(section: 1, row: 1)) == "Магия")
    }

    @Test("an unsectioned source has one untitled section, even when empty")
    func unsectioned() throws {
        let source = ArraySource([String]())
        #expect(source.numberOfSections == 1)
        #expect(source.title(forSection: 0) == nil)
        try source.insert("Проза", at: 0)
        #expect(source.elements == ["Проза"])
    }

    @Test("every mutation announces exactly its change, after applying it")
    func announcements() throws {
        let source = ArraySource(["a", "b", "c"])
        var seen: [(TableChange, [String])] = []
        let token = source.changes.observe { seen.append(($0, source.elements)) }
        defer { token.cancel() }

        try source.insert("x", at: 1)
        try source.remove(at: 0)
        try source.move(from: 0, to: 2)
        try source.update(at: 0, with: "B")
        source.replace(all: ["z"])

        #expect(seen.map(\.0) == [
            .insert(TableIndexPath(row: 1)),
            .delete(TableIndexPath(row: 0), id: TableItemID(0)),
            .move(from: TableIndexPath(row: 0), to: TableIndexPath(row: 2)),
            .update(TableIndexPath(row: 0)),
            .reload,
        ])
        #expect(seen.map(\.1) == [["a", "x", "b", "c"], ["x", "b", "c"], ["b", "c", "x"], ["B", "c", "x"], ["z"]])
    }

    @Test("insert(_:) puts an element in its key's section at its sorted place, creating the section")
    func insertWhereItBelongs() {
        let source = ArraySource(Set(["Бизнес", "Юмор"]), sortedBy: { $0 }, sectionedBy: { String($0.prefix(1)) })
        let recorder = SourceRecorder(source)

        #expect(source.insert("Проза") == TableIndexPath(section: 1, row: 0))
        #expect(source.insert("Безопасность") == TableIndexPath(section: 0, row: 0))
        #expect(recorder.changes == [
            .insertSection(1),
            .insert(TableIndexPath(section: 1, row: 0)),
            .insert(TableIndexPath(section: 0, row: 0)),
        ])
        #expect((0..<source.numberOfSections).map { source.title(forSection: $0) } == ["Б", "П", "Ю"])
    }

    @Test("removing the last row of a section deletes the section after the row")
    func emptySectionIsDeleted() throws {
        let source = ArraySource(["Бизнес", "Проза", "Психология"], sectionedBy: { String($0.prefix(1)) })
        let recorder = SourceRecorder(source)
        try source.remove(at: TableIndexPath(section: 0, row: 0))
        #expect(recorder.changes == [.delete(TableIndexPath(section: 0, row: 0), id: TableItemID(0)), .deleteSection(0, removedIDs: [])])
        #expect(source.numberOfSections == 1)
        #expect(source.title(forSection: 0) == "П")
    }

    @Test("an update changing the section key moves the row to its section, keeping its identity")
    func updateAcrossSections() throws {
        let source = ArraySource(["Бизнес", "Проза"], sectionedBy: { String($0.prefix(1)) })
        let recorder = SourceRecorder(source)
        try source.update(at: TableIndexPath(section: 0, row: 0), with: "Поэзия")
        #expect(recorder.changes == [
            .move(from: TableIndexPath(section: 0, row: 0), to: TableIndexPath(section: 1, row: 1)),
            .update(TableIndexPath(section: 1, row: 1)),
            .deleteSection(0, removedIDs: []),
        ])
        #expect(source.numberOfSections == 1)
        #expect(source.item(at: TableIndexPath(section: 0, row: 1)).id == TableItemID(0))
    }

    @Test("an update to a new section key creates the section before moving the row")
    func updateIntoNewSection() throws {
        let source = ArraySource(["Проза", "Поэзия"], sectionedBy: { String($0.prefix(1)) })
        let recorder = SourceRecorder(source)
        try source.update(at: TableIndexPath(section: 0, row: 1), with: "Юмор")
        #expect(recorder.changes == [
            .insertSection(1),
            .move(from: TableIndexPath(section: 0, row: 1), to: TableIndexPath(section: 1, row: 0)),
            .update(TableIndexPath(section: 1, row: 0)),
        ])
    }

    @Test("an update changing a keyed identity is a deletion and an insertion")
    func updateChangingIdentity() throws {
        let source = ArraySource([Person(id: 1, name: "Ада"), Person(id: 2, name: "Алан")], id: \.id)
        let recorder = SourceRecorder(source)
        try source.update(at: 0, with: Person(id: 3, name: "Грейс"))
        #expect(recorder.changes == [.delete(TableIndexPath(row: 0), id: TableItemID(1)), .insert(TableIndexPath(row: 0))])
        #expect(source.elements.map(\.name) == ["Грейс", "Алан"])
    }

    @Test("invalid positions are refused with errors naming them")
    func errors() {
        let source = ArraySource(["Бизнес", "Проза"], sectionedBy: { String($0.prefix(1)) })
        #expect(throws: TableSourceError.rowOutOfRange(TableIndexPath(section: 1, row: 5), rowCount: 1)) {
            try source.remove(at: TableIndexPath(section: 1, row: 5))
        }
        #expect(throws: TableSourceError.sectionOutOfRange(section: 4, sectionCount: 2)) {
            try source.insert("Бокс", at: TableIndexPath(section: 4, row: 0))
        }
        #expect(throws: TableSourceError.sectionMismatch(TableIndexPath(section: 1, row: 0), elementKey: "Б", sectionKey: "П")) {
            try source.insert("Бокс", at: TableIndexPath(section: 1, row: 0))
        }
        let message = TableSourceError.rowOutOfRange(TableIndexPath(section: 1, row: 5), rowCount: 1).description
        #expect(message == "row 5 of section 1 is out of range: the section has 1 row(s)")
        #expect(source.elements == ["Бизнес", "Проза"], "a refused change changes nothing")
    }
}
