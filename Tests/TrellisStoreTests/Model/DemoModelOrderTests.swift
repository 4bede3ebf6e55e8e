import Foundation
import GRDB
import Testing
@testable import TrellisStore

/// The demo's lists read their pages through an index: a page of an order no index serves
/// sorts every row of the table (with 10,000 notes, `trellis --headless /notes` spent most
/// of its time sorting the notes once per page).
@Suite("Demo model orders")
struct DemoModelOrderTests {
    @Test("the notes page's order (last change first) and the people's are read through an index, with no sort",
          arguments: [("Note", [SortKey.descending("updated")]), ("Person", [.ascending("lastName"), .ascending("firstName")])])
    func pagesNeedNoSort(entity: String, sortKeys: [SortKey]) throws {
        let model = try Fixtures.demoModel()
        let store = try PersistentStore(url: try Fixtures.storeURL(), model: model)
        defer { try? store.close() }
        let fetch = try CompiledFetch(FetchRequest(entityName: entity, sortKeys: sortKeys), model: model)
        let tail = fetch.tail(limit: 50, offset: 100)
        let plan = try store.read("query plan") { db in
            try Row.fetchAll(db, sql: "EXPLAIN QUERY PLAN " + ObjectRow.selectSQL(fetch.entity, tail.sql),
                             arguments: StatementArguments(tail.arguments.map { $0.intValue ?? 0 }))
                .map { $0["detail"] as String? ?? "" }
        }
        #expect(!plan.isEmpty)
        #expect(!plan.contains { $0.contains("TEMP B-TREE") }, "\(entity) \(sortKeys): \(plan)")
    }
}
