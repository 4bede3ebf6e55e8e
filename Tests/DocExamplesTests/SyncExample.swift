import Foundation
import TrellisCore
import TrellisStore
@testable import TrellisSync

/// Where the examples of TrellisSync's doc comments are compiled: `.ci/doc-examples` makes each
/// ```swift block the body of an `async throws` method of this class, in
/// `Generated/Symbols_TrellisSync_*.swift`, so that an example reads as a notes app's code that
/// syncs with a REST server: `sync`, `store`, `context`, `notesSync` and the names below are
/// the app's. They are compiled, never run (TrellisSyncTests runs them against real servers).
/// The module is imported `@testable`: HTTPErrorText, internal, is documented by example.
///
/// An example uses the names below as locals: its method begins with `let name = self.name`
/// for each it names (`.ci/doc-examples`), so its closures capture them as in an app's function.
@MainActor final class SyncExample {
    let bus = EventBus()
    /// The server's token, its notes' collection and one note's URL.
    let token = "s3cret"
    let notesURL = URL(string: "https://notes.example/api/notes")!
    let url = URL(string: "https://notes.example/api/notes/7")!
    /// The app's transport.
    lazy var sync = BasicSync(settings: SyncSettings(bearerToken: token), bus: bus)
    /// The app's store (of the demo's model, data/model.json), a context, and its notes' sync.
    lazy var store = try! PersistentStore(
        url: PersistentStore.defaultURL(),
        model: ManagedObjectModel(contentsOf: URL(fileURLWithPath: "data/model.json")), bus: bus)
    lazy var context = store.newContext()
    lazy var notesSync = try! EntitySync(store: store, bus: bus, server: URL(string: "https://notes.example/api")!,
                                         settings: SyncSettings(bearerToken: token))

    /// Shows a conflict's two versions (a stand-in for the app's own work).
    func show(_ original: ObjectID, beside copy: ObjectID?) {}
}
