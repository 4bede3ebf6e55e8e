import Foundation
import TrellisCore
import TrellisStore

/// Everything a store holds, one line per object ("Entity UUID key=value …", sorted), read
/// through a read-only store so that taking it never writes: two equal snapshots mean nothing
/// was lost or changed.
struct StoreSnapshot: Equatable, CustomStringConvertible {
    let lines: [String]
    /// `PRAGMA integrity_check`'s answer (`["ok"]` for a sound file).
    let integrity: [String]

    init(of url: URL, dataDirectory: URL) throws {
        let model = try ManagedObjectModel(contentsOf: dataDirectory.appendingPathComponent("model.json"))
        let store = try PersistentStore(url: url, model: model, options: StoreOptions(readOnly: true))
        defer { try? store.close() }
        let context = store.newContext()
        var lines: [String] = []
        for entity in model.entities {
            for object in try context.fetch(FetchRequest(entityName: entity.name)) {
                let values = entity.keys.map { "\($0)=\(object[$0])" }
                lines.append(([entity.name, object.objectID.uuid.uuidString] + values).joined(separator: " "))
            }
        }
        self.lines = lines.sorted()
        integrity = try store.integrityCheck()
    }

    var description: String { (lines + ["integrity: \(integrity)"]).joined(separator: "\n") }
}
