import Foundation
import TrellisCore
import TrellisStore

/// Opens the demo's store: the model file `data/model.json`, the database at `--database PATH`
/// or the embedded default under `$XDG_DATA_HOME/trellis/`, and sample people on first run.
@MainActor
public enum DemoStore {
    /// Opens (creating on first run) the store at `url`, or at the default location.
    /// Runs on any thread (the window opens the store while GTK starts).
    public nonisolated static func open(at url: URL? = nil, dataDirectory: URL, bus: EventBus) throws -> PersistentStore {
        let model = try ManagedObjectModel(contentsOf: dataDirectory.appendingPathComponent("model.json"))
        let store = try PersistentStore(url: url ?? PersistentStore.defaultURL(), model: model, bus: bus)
        let context = store.newContext()
        if try context.count(for: RecordRequest<Person>()) == 0 {
            for person in Person.samples { try context.insert(person) }
            try context.save()
        }
        return store
    }
}
