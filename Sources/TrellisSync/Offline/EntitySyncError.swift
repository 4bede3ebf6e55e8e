/// Why an ``EntitySync`` cannot be set up.
public enum EntitySyncError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The store's model has no entity `entity` (the synced one, or `SyncRecord` and
    /// `SyncOutboxEntry`, which hold the sync state: see `data/model.json`).
    case missingEntity(entity: String, modelSource: String)
    /// The synced entity has no attribute `key`.
    case unknownKey(entity: String, key: String)
    /// The server URL cannot be used (see ``SyncSettings/check(_:for:)``).
    case refusedServer(SyncError)

    public var description: String {
        switch self {
        case .missingEntity(let entity, let source):
            return "\(source): the model has no entity '\(entity)', which syncing needs"
        case .unknownKey(let entity, let key):
            return "sync mapping: entity '\(entity)' has no attribute '\(key)'"
        case .refusedServer(let error):
            return "sync server: \(error)"
        }
    }
}
