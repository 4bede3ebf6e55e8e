import Testing
import TrellisCore

@Suite("Flat change announcements")
@MainActor
struct FlatChangeTests {
    @Test("a million rows: insert, delete, move and update each announce the smallest change")
    func millionRows() throws {
        let source = ArraySource((0..<1_000_000).map { "Row \($0)" })
        let container = TableContainer(source: source)
        let recorder = FlatRecorder(container)
        #expect(container.flatCount == 1_000_000)
        #expect(container.text(at: 999_999) == "Row 999999")

        try source.insert("New", at: 500_000)
        #expect(recorder.batches == [[FlatChange(position: 500_000, removed: 0, added: 1)]])
        #expect(container.flatCount == 1_000_001)
        #expect(container.text(at: 500_000) == "New")
        #expect(container.text(at: 500_001) == "Row 500000")

        recorder.reset()
        try source.remove(at: 10)
        #expect(recorder.batches == [[FlatChange(position: 10, removed: 1, added: 0)]])

        recorder.reset()
        try source.update(at: 7, with: "Seven")
        #expect(recorder.batches == [[FlatChange(position: 7, removed: 1, added: 1)]])
        #expect(container.text(at: 7) == "Seven")

        recorder.reset()
        try source.move(from: 3, to: 999_000)
        #expect(recorder.batches == [
            [FlatChange(position: 3, removed: 1, added: 0)], [FlatChange(position: 999_000, removed: 0, added: 1)],
        ])
        #expect(container.text(at: 999_000) == "Row 3")
    }

    @Test("during the removal half of a move the model shows the row removed and not yet inserted")
    func moveIsConsistent() throws {
        let source = ArraySource(["a", "b", "c", "d", "e"])
        let container = TableContainer(source: source)
        var seen: [(count: Int, rows: [String])] = []
        let token = container.onFlatChanges { _ in seen.append((container.flatCount, container.texts())) }
        defer { token.cancel() }
        try source.move(from: 1, to: 3)
        #expect(seen.map(\.count) == [4, 5])
        #expect(seen.map(\.rows) == [["a", "c", "d", "e"], ["a", "c", "d", "b", "e"]])
    }

    @Test("a reload replaces every row in one change")
    func reload() {
        let source = ArraySource(["a", "b", "c"])
        let container = TableContainer(source: source)
        let recorder = FlatRecorder(container)
        source.replace(all: ["x", "y"])
        #expect(recorder.changes == [FlatChange(position: 0, removed: 3, added: 2)])
        #expect(container.texts() == ["x", "y"])
    }

    @Test("while a search is active, source changes announce only the rows it shows")
    func changesUnderSearch() throws {
        let source = ArraySource(["Фэнтези", "Проза", "Боевое фэнтези", "Юмор"])
        let container = TableContainer(source: source, searchable: true)
        container.searchText = "фэнтези"
        let recorder = FlatRecorder(container)
        #expect(container.texts() == ["Фэнтези", "Боевое фэнтези"])

        try source.insert("Поэзия", at: 1)
        #expect(recorder.batches.isEmpty, "a hidden row arrives silently")

        try source.insert("Русское фэнтези", at: 0)
        #expect(recorder.batches.last == [FlatChange(position: 0, removed: 0, added: 1)])

        try source.remove(at: 2)
        #expect(recorder.batches.count == 1, "a hidden row leaves silently")

        try source.update(at: 4, with: "Юмористическое фэнтези")
        #expect(recorder.batches.last == [FlatChange(position: 3, removed: 0, added: 1)], "an update can reveal a row")

        try source.update(at: 1, with: "Фантастика")
        #expect(recorder.batches.last == [FlatChange(position: 1, removed: 1, added: 0)], "an update can hide a row")

        try source.move(from: 4, to: 0)
        #expect(Array(recorder.batches.suffix(2)) == [
            [FlatChange(position: 2, removed: 1, added: 0)], [FlatChange(position: 0, removed: 0, added: 1)],
        ])
        #expect(container.texts() == ["Юмористическое фэнтези", "Русское фэнтези", "Боевое фэнтези"])

        container.searchText = ""
        #expect(container.texts() == ["Юмористическое фэнтези", "Русское фэнтези", "Фантастика", "Проза", "Боевое фэнтези"])
    }

    @Test("random changes, searches and toggles keep an announced-changes mirror equal to the model")
    func randomized() throws {
        var generator = SeededGenerator(seed: 7)
        let words = Array(CatalogFixture.genres.prefix(60))
        let source = ArraySource(Array(words.prefix(30)), sectionedBy: { String($0.prefix(1)) })
        let container = TableContainer(source: source, selectionMode: .multiple, searchable: true)
        var mirror = container.texts()
        var problems: [String] = []
        let token = container.onFlatChanges { batch in
            for change in batch {
                guard change.position + change.removed <= mirror.count else {
                    problems.append("\(change) beyond \(mirror.count) rows")
                    continue
                }
                let added = (change.position..<(change.position + change.added)).map(container.text(at:))
                mirror.replaceSubrange(change.position..<(change.position + change.removed), with: added)
            }
            if mirror.count != container.flatCount { problems.append("count \(mirror.count) ≠ \(container.flatCount)") }
        }
        defer { token.cancel() }

        for step in 0..<400 {
            let sections = source.numberOfSections
            let section = sections > 0 ? Int.random(in: 0..<sections, using: &generator) : 0
            let rows = sections > 0 ? source.numberOfRows(inSection: section) : 0
            let row = rows > 0 ? Int.random(in: 0..<rows, using: &generator) : 0
            let word = words.randomElement(using: &generator)!
            switch Int.random(in: 0..<12, using: &generator) {
            case 0..<3: source.insert(word)
            case 3..<5 where rows > 0: try source.remove(at: TableIndexPath(section: section, row: row))
            case 5..<7 where rows > 0: try source.update(at: TableIndexPath(section: section, row: row), with: word)
            case 7 where rows > 1:
                let target = Int.random(in: 0..<rows, using: &generator)
                try source.move(from: TableIndexPath(section: section, row: row), to: TableIndexPath(section: section, row: target))
            case 8..<10:
                container.searchText = ["", "а", "ро", "п", "фэн", "е", "ая ли"].randomElement(using: &generator)!
            case 10 where container.flatCount > 0:
                _ = try? container.toggle(flatIndex: Int.random(in: 0..<container.flatCount, using: &generator))
            case 11 where step % 50 == 0:
                source.replace(all: Array(words.shuffled(using: &generator).prefix(20)))
            default:
                break
            }
            #expect(problems.isEmpty, "step \(step): \(problems)")
            #expect(mirror == container.texts(), "step \(step)")
            #expect(container.texts() == expectedRows(source, container), "step \(step)")
            problems = []
        }
    }

    /// The rows the container should show, computed naively from the source.
    private func expectedRows(_ source: ArraySource<String>, _ container: TableContainer) -> [String] {
        var rows: [String] = []
        for section in 0..<source.numberOfSections {
            let shown = (0..<source.numberOfRows(inSection: section))
                .map { source.item(at: TableIndexPath(section: section, row: $0)) }
                .filter { TableSearcher.matches($0.value(as: String.self) ?? "", query: container.searchText) }
            guard !shown.isEmpty else { continue }
            rows.append("# \(source.title(forSection: section) ?? "")")
            rows += shown.map { ($0.value(as: String.self) ?? "") + (container.selection.isSelected($0.id) ? " *" : "") }
        }
        return rows
    }
}
