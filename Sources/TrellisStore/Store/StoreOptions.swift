import Foundation
import TrellisCore

/// How a ``PersistentStore`` opens its file.
public struct StoreOptions: Sendable {
    /// How long a statement waits for another connection's lock before failing with
    /// ``StoreError/busy(_:)``.
    public var busyTimeout: TimeInterval
    /// Opens an existing store without ever writing to it; saves fail with
    /// ``StoreError/readOnly(_:)``.
    public var readOnly: Bool

    public init(busyTimeout: TimeInterval = 5, readOnly: Bool = false) {
        self.busyTimeout = busyTimeout
        self.readOnly = readOnly
    }
}

/// Where the store announces its saves: `trigger("store:did-save", data)` after every save
/// that changed something.
///
/// TrellisCore's event bus conforms to it in the application; tests use a recorder.
/// `data` is `{"inserted": {"Note": ["<id>", ...]}, "updated": {...}, "deleted": {...}}`,
/// listing object ids (upper-case UUID text) per entity; an entity with no change of a
/// kind is absent from that kind.
public protocol StoreEventSink: Sendable {
    func trigger(_ message: String, _ data: JSONValue)
}
