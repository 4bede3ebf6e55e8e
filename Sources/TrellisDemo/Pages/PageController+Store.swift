import TrellisCore
import TrellisStore

extension PageController {
    /// The content `build` makes from the demo's store, or a sentence saying why there is
    /// none: no store is open, or `failure` with the error `build` threw.
    func storeContent(failure: (String) -> String, _ build: (PersistentStore) throws -> PageContent) -> PageContent {
        guard let store = shell?.resolve(StoreBox.self)?.store else { return .text(tr("No store is open.")) }
        do {
            return try build(store)
        } catch {
            return .text(failure(String(describing: error)))
        }
    }
}
