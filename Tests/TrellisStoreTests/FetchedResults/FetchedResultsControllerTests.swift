import Foundation
import GRDB
import Testing
import TrellisCore
@testable import TrellisStore

@MainActor
@Suite("Fetched results: paging and live diffs")
struct FetchedResultsControllerTests {
    private func notesByCreated(_ context: ManagedObjectContext) throws -> FetchedResultsController {
        try FetchedResultsController(request: FetchRequest(entityName: "Note", sortKeys: [.descending("created")],
                                                           batchSize: 10), context: context)
    }

    @Test("counts without reading rows and reads only the pages asked for")
    func paging() throws {
        let fixture = try StoreFixture()
        let context = fixture.store.newContext()
        for number in 0..<95 {
            try StoreFixture.insertNote(context, title: "n\(number)", created: Date(timeIntervalSince1970: Double(number)))
        }
        try context.save()
        let results = try notesByCreated(context)
        #expect(results.count == 95 && results.sections.count == 1 && results.sections[0].title == "")
        #expect(try results.object(at: TableIndexPath(row: 0))["title"] == "n94")
        #expect(try results.object(at: TableIndexPath(row: 9))["title"] == "n85")
        #expect(try results.object(atOffset: 94)["title"] == "n0")
        #expect(results.pages.loadedRowCount == 15, "two pages of ten, the last one five rows")
        let last = try results.object(atOffset: 94)
        #expect(try results.indexPath(for: last.objectID) == TableIndexPath(row: 94))
    }

    @Test("one inserted note arrives as one inserted index path and nothing else")
    func singleInsert() async throws {
        let fixture = try StoreFixture()
        let context = fixture.store.newContext()
        for number in 0..<20 {
            try StoreFixture.insertNote(context, title: "n\(number)", created: Date(timeIntervalSince1970: Double(number)))
        }
        try context.save()
        let results = try notesByCreated(context)
        let recorder = ChangeRecorder(results)
        let note = try StoreFixture.insertNote(context, title: "newest", created: Date(timeIntervalSince1970: 100))
        try context.save()
        try await recorder.waitForChanges(1)
        var expected = FetchedResultsChange()
        expected.inserted = [FetchedResultsChange.Row(id: note.objectID, path: TableIndexPath(row: 0))]
        #expect(recorder.changes == [expected])
        #expect(results.count == 21)
        #expect(try results.object(at: TableIndexPath(row: 0)) === note)
    }

    @Test("deleting, editing in place and re-sorting arrive as delete, update and move")
    func deleteUpdateMove() async throws {
        let fixture = try StoreFixture()
        let context = fixture.store.newContext()
        let notes = try (0..<5).map {
            try StoreFixture.insertNote(context, title: "n\($0)", created: Date(timeIntervalSince1970: Double($0)))
        }
        try context.save()
        let results = try notesByCreated(context)   // n4 n3 n2 n1 n0
        let recorder = ChangeRecorder(results)

        try context.delete(notes[3])
        try context.save()
        try await recorder.waitForChanges(1)
        #expect(recorder.changes[0].deleted == [FetchedResultsChange.Row(id: notes[3].objectID, path: TableIndexPath(row: 1))])

        notes[2]["title"] = "edited"
        try context.save()
        try await recorder.waitForChanges(2)
        #expect(recorder.changes[1].updated == [FetchedResultsChange.Row(id: notes[2].objectID, path: TableIndexPath(row: 1))])
        #expect(recorder.changes[1].moved.isEmpty && recorder.changes[1].inserted.isEmpty)

        notes[0]["created"] = .date(Date(timeIntervalSince1970: 50))   // n0 goes to the top
        try context.save()
        try await recorder.waitForChanges(3)
        #expect(recorder.changes[2].moved == [FetchedResultsChange.Move(id: notes[0].objectID, from: TableIndexPath(row: 3),
                                                                        to: TableIndexPath(row: 0))])
        #expect(try listing(results) == [[notes[0], notes[4], notes[2], notes[1]].map(\.objectID)])

        notes[1]["created"] = .date(Date(timeIntervalSince1970: 1.5))   // changes its sort value, keeps its place
        try context.save()
        try await recorder.waitForChanges(4)
        #expect(recorder.changes[3].updated == [FetchedResultsChange.Row(id: notes[1].objectID, path: TableIndexPath(row: 3))])
        #expect(recorder.changes[3].moved.isEmpty)
    }

    @Test("sections by key: a new key inserts a section, the last row of a key deletes it")
    func sections() async throws {
        let fixture = try StoreFixture()
        let context = fixture.store.newContext()
        let anna = try StoreFixture.insertPerson(context, "Anna", "Ivanova")
        let boris = try StoreFixture.insertPerson(context, "Boris", "Petrov")
        let vera = try StoreFixture.insertPerson(context, "Vera", "Petrov")
        try context.save()
        let results = try FetchedResultsController(
            request: FetchRequest(entityName: "Person", sortKeys: [.ascending("firstName")]), sectionKey: "lastName",
            context: context)
        #expect(results.sections.map(\.title) == ["Ivanova", "Petrov"])
        #expect(results.sections.map(\.count) == [1, 2])
        #expect(try listing(results) == [[anna.objectID], [boris.objectID, vera.objectID]])
        let recorder = ChangeRecorder(results)

        let gleb = try StoreFixture.insertPerson(context, "Gleb", "Kuznetsov")
        try context.save()
        try await recorder.waitForChanges(1)
        #expect(recorder.changes[0].insertedSections == [1])
        #expect(recorder.changes[0].inserted == [FetchedResultsChange.Row(id: gleb.objectID, path: TableIndexPath(section: 1, row: 0))])
        #expect(results.sections.map(\.title) == ["Ivanova", "Kuznetsov", "Petrov"])

        anna["lastName"] = "Petrov"
        try context.save()
        try await recorder.waitForChanges(2)
        let move = recorder.changes[1]
        #expect(move.deletedSections == [0])
        #expect(move.moved == [FetchedResultsChange.Move(id: anna.objectID, from: TableIndexPath(section: 0, row: 0),
                                                         to: TableIndexPath(section: 1, row: 0))])
        #expect(try listing(results) == [[gleb.objectID], [anna.objectID, boris.objectID, vera.objectID]])
    }

    @Test("random batches of saves: every announced change turns the old listing into the new one",
          arguments: [false, true])
    func randomDiffs(sectioned: Bool) async throws {
        let fixture = try StoreFixture()
        let context = fixture.store.newContext()
        var generator = SystemRandomNumberGenerator()
        let lastNames = ["A", "B", "C", "D", "E"]
        func insertRandomPerson() throws -> ManagedObject {
            try StoreFixture.insertPerson(context, "p\(Int.random(in: 0..<50, using: &generator))",
                                          lastNames.randomElement(using: &generator)!, age: Int.random(in: 0..<3))
        }
        var people = try (0..<30).map { _ in try insertRandomPerson() }
        try context.save()
        let request = FetchRequest(entityName: "Person", predicate: .less("age", 2),
                                   sortKeys: [.ascending("lastName"), .ascending("firstName")], batchSize: 7)
        let results = try FetchedResultsController(request: request, sectionKey: sectioned ? "lastName" : nil,
                                                   context: context)
        let recorder = ChangeRecorder(results)
        var shown = try listing(results)
        for _ in 0..<25 {
            for _ in 0..<Int.random(in: 1...3, using: &generator) {
                for _ in 0..<Int.random(in: 1...6, using: &generator) {
                    switch Int.random(in: 0..<5, using: &generator) {
                    case 0: people.append(try insertRandomPerson())
                    case 1 where !people.isEmpty:
                        try context.delete(people.remove(at: Int.random(in: 0..<people.count, using: &generator)))
                    case 2 where !people.isEmpty:
                        people.randomElement(using: &generator)!["firstName"] = .string("p\(Int.random(in: 0..<50, using: &generator))")
                    case 3 where !people.isEmpty:
                        people.randomElement(using: &generator)!["lastName"] = .string(lastNames.randomElement(using: &generator)!)
                    default:
                        if let person = people.randomElement(using: &generator) { person["age"] = .integer(Int.random(in: 0..<3)) }
                    }
                }
                try context.save()
            }
            let seen = recorder.changes.count
            try await recorder.waitUntilCurrent()
            for change in recorder.changes[seen...] {
                #expect(!change.isReload)
                let next = try #require(applying(change, to: shown), "change \(change) does not fit \(shown)")
                shown = next
            }
            #expect(shown == (try listing(results)))
            #expect(results.sections.map(\.count) == shown.map(\.count))
            let fresh = try FetchedResultsController(request: request, sectionKey: sectioned ? "lastName" : nil,
                                                     context: context)
            #expect(fresh.sections == results.sections)
        }
    }

    @Test("saves the change log does not cover (another process) arrive as a reload")
    func externalWriteReloads() async throws {
        let fixture = try StoreFixture()
        let context = fixture.store.newContext()
        try StoreFixture.insertNote(context, title: "one")
        try context.save()
        let results = try notesByCreated(context)
        let recorder = ChangeRecorder(results)
        let other = try DatabaseQueue(path: fixture.url.path)
        try await other.write { db in
            try db.execute(sql: "INSERT INTO Note (id, title, body, created, updated) VALUES (?, 'external', '', 5, 5)",
                           arguments: [UUID().uuidString])
            try db.execute(sql: "UPDATE trellis_metadata SET value = value + 1 WHERE key = 'commit_sequence'")
        }
        try StoreFixture.insertNote(context, title: "two")
        try context.save()
        try await recorder.waitForChanges(1)
        #expect(recorder.changes == [.reload])
        #expect(results.count == 3)
    }

    @Test("a new request reloads; an unknown section key is refused")
    func setRequest() throws {
        let fixture = try StoreFixture()
        let context = fixture.store.newContext()
        try StoreFixture.insertNote(context, title: "Фэнтези")
        try StoreFixture.insertNote(context, title: "Детектив")
        try context.save()
        let results = try notesByCreated(context)
        let recorder = ChangeRecorder(results)
        var request = results.request
        request.predicate = .contains("title", "фэн")
        try results.setRequest(request)
        #expect(recorder.changes == [.reload] && results.count == 1)
        #expect(throws: ContextError.unknownKey(entity: "Note", key: "genre")) {
            try FetchedResultsController(request: request, sectionKey: "genre", context: context)
        }
    }
}
