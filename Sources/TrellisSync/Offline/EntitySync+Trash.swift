import Foundation
import TrellisCore
import TrellisStore

/// What a pull took out of the store (the Trash) and the conflicts kept for the user.
///
/// ```swift
/// if let trashed = try notesSync.trashedObjects().first {
///     print(trashed["title"] ?? "", trashed.reason)     // "Shopping", "deleted on the server"
///     try notesSync.restore(trashed.id)                 // back in the store, created again on the server
/// }
/// if let conflict = try notesSync.conflicts().first {
///     let serverVersion = conflict.original             // the note, holding the server's state
///     let localEdit = conflict.copy                     // the copy holding the edit (nil: a deletion)
///     show(serverVersion, beside: localEdit)
///     try notesSync.dismissConflict(conflict)
/// }
/// ```
extension EntitySync {
    /// The objects in the Trash, most recent first.
    public func trashedObjects() throws -> [TrashedObject] {
        try trash.all()
    }

    /// Puts trashed object `id` back in the store, with its id and values, and queues it to
    /// be created on the server again — first looked for there by its client id, so that a
    /// note the server still has (or has again) is linked, not made twice. When the note came
    /// back from the server meanwhile (another object holds its resource), that object is the
    /// note: the Trash entry is dropped and its id returned. Returns `nil` when the Trash has
    /// no object `id`.
    @discardableResult
    public func restore(_ id: UUID) throws -> ObjectID? {
        guard let entry = try trash.entry(id), let trashed = SyncTrash.trashedObject(entry) else { return nil }
        do {
            let clientID = entry["clientID"].stringValue ?? Self.clientID(of: id)
            if let holder = try records.all().first(where: { record in
                   record.localID != id && (record.clientID == clientID || record.remoteID == trashed.remoteID)
               }), let back = try object(holder.localID)
            {
                try context.delete(entry)
                try context.save()
                announceKeptChange()
                return back.objectID
            }
            let object = try self.object(id) ?? context.insert(entity.name, id: id)
            for attribute in entity.attributes {
                guard let json = trashed[attribute.name], let value = AttributeValue(json: json, as: attribute.type) else {
                    continue
                }
                try object.setValue(value, forKey: attribute.name)
            }
            let create = try outbox.enqueue(.create, localID: id, payload: mapping.attributes(of: object),
                                            sequence: try outbox.nextSequence(), clientID: clientID, pristine: true)
            create["sent"] = .bool(true)
            try context.delete(entry)
            try context.save()
            announceKeptChange()
            wake?.yield()
            return object.objectID
        } catch {
            context.rollback()
            throw error
        }
    }

    /// Deletes trashed object `id` for good (nothing is sent to the server, which no longer
    /// has it).
    public func discardFromTrash(_ id: UUID) throws {
        guard let entry = try trash.entry(id) else { return }
        try context.delete(entry)
        try context.save()
        announceKeptChange()
    }

    /// The conflicts not dismissed yet, most recent first: each names the object that took
    /// the server's state and the copy holding the local edit.
    public func conflicts() throws -> [SyncConflict] {
        try conflictLog.all()
    }

    /// Forgets `conflict` (the objects stay as they are).
    public func dismissConflict(_ conflict: SyncConflict) throws {
        try conflictLog.remove(original: conflict.original.uuid)
        try context.save()
        announceKeptChange()
    }

    func announceKeptChange() {
        bus?.trigger(Events.keptChanged, [:], from: self)
    }
}
