import Foundation

extension PersistentStore {
    /// Writes a context's changes in one transaction, numbers the save, records its changes
    /// for fetched results, then tells observers and the event sink.
    func commit(_ batch: SaveBatch) throws -> StoreChanges {
        var sequence = 0
        let changes: StoreChanges
        do {
            changes = try write("save") { db in
                let changes = try SaveWriter(model: model, db: db).write(batch)
                sequence = try StoreMetadata.commitSequence(in: db) + 1
                try StoreMetadata.set(StoreMetadata.commitSequence, String(sequence), in: db)
                changeCenter.record(changes, sequence: sequence)
                return changes
            }
        } catch {
            if sequence > 0 { changeCenter.discard(sequence: sequence) }
            throw error
        }
        changeCenter.notify(sequence: sequence)
        bus?.trigger(Self.didSave, changes.json, from: self)
        logger.debug("saved", metadata: ["sequence": "\(sequence)", "rows": "\(batch.inserts.count + batch.updates.count + batch.deletes.count)"])
        return changes
    }
}
