import Foundation

/// How a ``PersistentStore`` opens its file.
public struct StoreOptions: Sendable {
    /// How long a statement waits for another connection's lock before failing with
    /// ``StoreError/busy(_:)``.
    public var busyTimeout: TimeInterval
    /// Opens an existing store without ever writing to it; saves fail with
    /// ``StoreError/readOnly(_:)``.
    public var readOnly: Bool

    /// Options with a 5-second busy timeout, read-write by default.
    public init(busyTimeout: TimeInterval = 5, readOnly: Bool = false) {
        self.busyTimeout = busyTimeout
        self.readOnly = readOnly
    }
}
