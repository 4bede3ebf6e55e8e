import Foundation
import TrellisCore
import TrellisStore

/// Where the examples of TrellisStore's doc comments are compiled: `.ci/doc-examples` makes each
/// ```swift block the body of an `async throws` method of this class, in
/// `Generated/Symbols_TrellisStore_*.swift`, so that an example reads as a notes app's code:
/// `store`, `context`, `model` and the objects below are the app's (a store of the demo's model,
/// data/model.json: notes with a title, a body and an author, people). They are compiled, never
/// run (TrellisStoreTests tests the store).
///
/// An example uses the names below as locals: its method begins with `let name = self.name`
/// for each it names (`.ci/doc-examples`), so its closures capture them as in an app's function.
@MainActor final class StoreExample {
    let bus = EventBus()
    let model = try! ManagedObjectModel(contentsOf: URL(fileURLWithPath: "data/model.json"))
    lazy var store = try! PersistentStore(url: PersistentStore.defaultURL(), model: model, bus: bus)
    lazy var context = store.newContext()
    /// A note and a person of `context`.
    lazy var note = try! context.insert("Note")
    lazy var person = try! context.insert("Person")
    /// Titles to import, a date, and a note's id.
    let titles = ["Shopping", "Groceries"]
    let weekAgo = Date(timeIntervalSinceNow: -7 * 86_400)
    let uuid = UUID()

    /// The record of ``ManagedRecord``'s example, which others use.
    struct NoteRecord: ManagedRecord, Codable {
        static let entityName = "Note"
        var id: ObjectID?
        var title: String
        var created: Date
    }
}
