import Testing
import TrellisCore

@Suite("Selection")
@MainActor
struct SelectionTests {
    private func genres() -> ArraySource<String> {
        ArraySource(["Бизнес", "Киберпанк", "Мистика", "Проза", "Фэнтези"])
    }

    @Test("single selection replaces the selected item and redraws both rows in one batch")
    func single() throws {
        let container = TableContainer(source: genres(), selectionMode: .single)
        let recorder = FlatRecorder(container)
        try container.select(flatIndex: 1)
        try container.select(flatIndex: 3)
        #expect(container.selection.selectedIDs == [TableItemID(3)])
        #expect(container.texts() == ["Бизнес", "Киберпанк", "Мистика", "Проза *", "Фэнтези"])
        #expect(recorder.batches == [
            [FlatChange(position: 1, removed: 1, added: 1)],
            [FlatChange(position: 1, removed: 1, added: 1), FlatChange(position: 3, removed: 1, added: 1)],
        ])
    }

    @Test("multiple selection accumulates toggles; toggling again deselects")
    func multiple() throws {
        let container = TableContainer(source: genres(), selectionMode: .multiple)
        try container.toggle(flatIndex: 0)
        try container.toggle(flatIndex: 4)
        try container.toggle(flatIndex: 2)
        try container.toggle(flatIndex: 0)
        #expect(container.selection.selectedIDs == [TableItemID(4), TableItemID(2)])
        #expect(container.selectedItems.compactMap { $0.value(as: String.self) } == ["Фэнтези", "Мистика"])
        #expect(container.isSelected(flatIndex: 4))
        #expect(!container.isSelected(flatIndex: 0))
    }

    @Test("a table without selection refuses to select")
    func none() {
        let container = TableContainer(source: genres())
        #expect(throws: TableContainerError.selectionDisabled(index: 1)) { try container.toggle(flatIndex: 1) }
        #expect(container.selection.count == 0)
    }

    @Test("the selection survives a search that hides the selected item")
    func survivesFilter() throws {
        let container = TableContainer(source: genres(), selectionMode: .multiple)
        try container.toggle(flatIndex: 1)
        try container.toggle(flatIndex: 4)
        container.searchText = "фэн"
        #expect(container.texts() == ["Фэнтези *"])
        try container.toggle(flatIndex: 0)
        container.searchText = ""
        #expect(container.texts() == ["Бизнес", "Киберпанк *", "Мистика", "Проза", "Фэнтези"])
    }

    @Test("the selection stays on the same items while other rows are inserted, deleted and moved")
    func survivesLiveUpdates() throws {
        let source = genres()
        let container = TableContainer(source: source, selectionMode: .single)
        try container.select(flatIndex: 2)
        try source.insert("Детектив", at: 0)
        try source.remove(at: 1)
        try source.move(from: 4, to: 0)
        #expect(container.texts() == ["Фэнтези", "Детектив", "Киберпанк", "Мистика *", "Проза"])
        #expect(container.flatIndex(of: TableItemID(2)) == 3)
    }

    @Test("deleting a selected item drops it from the selection and tells the callbacks")
    func deletionDropsSelection() throws {
        let source = genres()
        var changes: [SelectionChange] = []
        let container = TableContainer(
            source: source,
            callbacks: StandardCallbacks(onSelectionChange: { changes.append($0) }),
            selectionMode: .multiple
        )
        try container.toggle(flatIndex: 1)
        try container.toggle(flatIndex: 3)
        try source.remove(at: 1)
        #expect(container.selection.selectedIDs == [TableItemID(3)])
        #expect(changes.last == SelectionChange(selected: [TableItemID(3)], added: [], removed: [TableItemID(1)]))
    }

    @Test("after a reload the selection keeps the keyed identities still present")
    func reloadKeepsPresentIdentities() throws {
        let source = ArraySource(["Бизнес", "Проза", "Юмор"], id: { $0 })
        let container = TableContainer(source: source, selectionMode: .multiple)
        container.setSelection([TableItemID("Проза"), TableItemID("Юмор")])
        source.replace(all: ["Юмор", "Поэзия"])
        #expect(container.selection.selectedIDs == [TableItemID("Юмор")])
        #expect(container.texts() == ["Юмор *", "Поэзия"])
    }

    @Test("after a reload serial identities are new, so the selection is cleared")
    func reloadClearsSerialSelection() throws {
        let source = genres()
        let container = TableContainer(source: source, selectionMode: .multiple)
        try container.toggle(flatIndex: 0)
        source.replace(all: ["Бизнес"])
        #expect(container.selection.count == 0)
    }

    @Test("setSelection keeps only the first identity in single mode; clearSelection redraws")
    func programmaticSelection() {
        let container = TableContainer(source: genres(), selectionMode: .single)
        let recorder = FlatRecorder(container)
        container.setSelection([TableItemID(4), TableItemID(0)])
        #expect(container.selection.selectedIDs == [TableItemID(4)])
        container.clearSelection()
        #expect(container.selection.count == 0)
        #expect(recorder.changes == [FlatChange(position: 4, removed: 1, added: 1), FlatChange(position: 4, removed: 1, added: 1)])
    }

    @Test("selection observers hear every change after the callbacks, a hidden row's and a deleted item's too")
    func observersHearEveryChange() throws {
        let source = genres()
        var heard: [String] = []
        let container = TableContainer(
            source: source,
            callbacks: StandardCallbacks(onSelectionChange: { heard.append("callbacks \($0.selected.count)") }),
            selectionMode: .multiple
        )
        var token: ObservationToken? = container.onSelectionChange { heard.append("observer \($0.selected.count)") }
        let recorder = FlatRecorder(container)
        try container.toggle(flatIndex: 1)
        container.searchText = "фэн"
        recorder.reset()
        container.clearSelection()
        #expect(recorder.changes.isEmpty, "no row shown changed when it was cleared")
        container.searchText = ""
        try container.toggle(flatIndex: 2)
        try source.remove(at: 2)
        #expect(heard == ["callbacks 1", "observer 1", "callbacks 0", "observer 0", "callbacks 1", "observer 1", "callbacks 0", "observer 0"])
        #expect(token != nil)
        let before = heard.count
        token = nil
        try container.toggle(flatIndex: 0)
        #expect(heard.count == before + 1, "a dropped token stops its observer")
    }
}
