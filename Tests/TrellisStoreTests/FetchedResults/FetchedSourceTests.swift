import Foundation
import Testing
import TrellisCore
@testable import TrellisStore

/// Mirrors a table source through its announcements, as a table container does, and
/// checks after every single change that the source reads exactly like the mirror.
@MainActor
private final class SourceMirror {
    private(set) var sections: [[TableItemID]] = []
    private(set) var announced: [TableChange] = []
    private(set) var problems: [String] = []
    private let source: any TableSource
    private var token: ObservationToken?

    init(_ source: any TableSource) {
        self.source = source
        sections = read()
        token = source.changes.observe { [weak self] change in self?.apply(change) }
    }

    private func read() -> [[TableItemID]] {
        (0..<source.numberOfSections).map { section in
            (0..<source.numberOfRows(inSection: section)).map { source.item(at: TableIndexPath(section: section, row: $0)).id }
        }
    }

    private func apply(_ change: TableChange) {
        announced.append(change)
        switch change {
        case .insert(let path):
            sections[path.section].insert(source.item(at: path).id, at: path.row)
        case .delete(let path, let id):
            if sections[path.section][path.row] != id { problems.append("\(change): mirror has \(sections[path.section][path.row])") }
            sections[path.section].remove(at: path.row)
        case .move(let from, let to):
            let id = sections[from.section].remove(at: from.row)
            sections[to.section].insert(id, at: to.row)
        case .update:
            break
        case .insertSection(let section):
            let rows = (0..<source.numberOfRows(inSection: section)).map {
                source.item(at: TableIndexPath(section: section, row: $0)).id
            }
            sections.insert(rows, at: section)
        case .deleteSection(let section, let removed):
            if sections[section] != removed { problems.append("\(change): mirror has \(sections[section])") }
            sections.remove(at: section)
        case .reload:
            sections = read()
        }
        if read() != sections { problems.append("after \(change) the source reads \(read()), the mirror has \(sections)") }
    }
}

@MainActor
@Suite("Fetched source: a TrellisCore table source over fetched results")
struct FetchedSourceTests {
    @Test("one inserted note is one .insert and one items-changed of one item in the table container")
    func singleInsert() async throws {
        let fixture = try StoreFixture()
        let context = fixture.store.newContext()
        for number in 0..<10 {
            try StoreFixture.insertNote(context, title: "n\(number)", created: Date(timeIntervalSince1970: Double(number)))
        }
        try context.save()
        let source = try FetchedSource(request: FetchRequest(entityName: "Note", sortKeys: [.descending("created")]),
                                       context: context)
        let container = TableContainer(source: source)
        var flat: [[FlatChange]] = []
        let token = container.onFlatChanges { flat.append($0) }
        let mirror = SourceMirror(source)
        let recorder = ChangeRecorder(source.results)

        let note = try StoreFixture.insertNote(context, title: "newest", created: Date(timeIntervalSince1970: 50))
        try context.save()
        try await recorder.waitForChanges(1)
        #expect(mirror.announced == [.insert(TableIndexPath(row: 0))])
        #expect(flat == [[FlatChange(position: 0, removed: 0, added: 1)]])
        #expect(container.flatCount == 11)
        #expect(source.item(at: TableIndexPath(row: 0)).id == TableItemID(note.objectID))
        #expect(source.item(at: TableIndexPath(row: 0)).value(as: ManagedObject.self)?.value(forKey: "title") == "newest")
        #expect(source.indexPath(of: TableItemID(note.objectID)) == TableIndexPath(row: 0))
        #expect(source.title(forSection: 0) == nil)
        token.cancel()
    }

    @Test("a renamed note in a list sorted by title is announced as one .move, keeping its identity")
    func singleMove() async throws {
        let fixture = try StoreFixture()
        let context = fixture.store.newContext()
        let notes = try ["a", "b", "c", "d"].map { try StoreFixture.insertNote(context, title: $0) }
        try context.save()
        let source = try FetchedSource(request: FetchRequest(entityName: "Note", sortKeys: [.ascending("title")]),
                                       context: context)
        let mirror = SourceMirror(source)
        let recorder = ChangeRecorder(source.results)
        notes[0]["title"] = "z"
        try context.save()
        try await recorder.waitForChanges(1)
        #expect(mirror.announced == [.move(from: TableIndexPath(row: 0), to: TableIndexPath(row: 3))])
        #expect(mirror.problems.isEmpty)
    }

    @Test("a note changed by another context is announced as an .update that reads its new values")
    func updateReadsNewValues() async throws {
        let fixture = try StoreFixture()
        let writer = fixture.store.newContext()
        let note = try StoreFixture.insertNote(writer, title: "a")
        note["body"] = "first"
        try writer.save()
        let source = try FetchedSource(request: FetchRequest(entityName: "Note", sortKeys: [.ascending("title")]),
                                       context: fixture.store.newContext())
        _ = source.item(at: TableIndexPath(row: 0)).value(as: ManagedObject.self)?["body"]
        var bodies: [JSONValue?] = []
        let token = source.changes.observe { change in
            guard case .update(let path) = change else { return }
            bodies.append(source.item(at: path).value(as: ManagedObject.self)?.value(forKey: "body"))
        }
        let recorder = ChangeRecorder(source.results)
        for body in ["second", "third"] {
            note["body"] = .string(body)
            try writer.save()
            try await recorder.waitUntilCurrent()
        }
        #expect(bodies == ["second", "third"])
        token.cancel()
    }

    @Test("random batches in sections are announced one change at a time, each readable in its state",
          arguments: [false, true])
    func randomBatches(sectioned: Bool) async throws {
        let fixture = try StoreFixture()
        let context = fixture.store.newContext()
        var generator = SystemRandomNumberGenerator()
        let lastNames = ["Ivanov", "Petrov", "Sidorov", "Smirnov"]
        func insertRandomPerson() throws -> ManagedObject {
            try StoreFixture.insertPerson(context, "p\(Int.random(in: 0..<40, using: &generator))",
                                          lastNames.randomElement(using: &generator)!)
        }
        var people = try (0..<25).map { _ in try insertRandomPerson() }
        try context.save()
        let source = try FetchedSource(
            request: FetchRequest(entityName: "Person", sortKeys: [.ascending("firstName")], batchSize: 4),
            sectionKey: sectioned ? "lastName" : nil, context: context)
        let mirror = SourceMirror(source)
        let recorder = ChangeRecorder(source.results)
        for _ in 0..<30 {
            for _ in 0..<Int.random(in: 1...5, using: &generator) {
                switch Int.random(in: 0..<4, using: &generator) {
                case 0: people.append(try insertRandomPerson())
                case 1 where !people.isEmpty:
                    try context.delete(people.remove(at: Int.random(in: 0..<people.count, using: &generator)))
                case 2 where !people.isEmpty:
                    people.randomElement(using: &generator)!["lastName"] = .string(lastNames.randomElement(using: &generator)!)
                default:
                    if let person = people.randomElement(using: &generator) {
                        person["firstName"] = .string("p\(Int.random(in: 0..<40, using: &generator))")
                    }
                }
            }
            try context.save()
            try await recorder.waitUntilCurrent()
        }
        #expect(mirror.problems == [])
        #expect(!mirror.announced.contains(.reload))
        #expect(mirror.sections == (try listing(source.results)).map { $0.map(TableItemID.init) })
        if sectioned {
            #expect((0..<source.numberOfSections).map { source.title(forSection: $0) }
                == source.results.sections.map(\.title))
        }
    }
}
