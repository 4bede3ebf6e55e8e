import Foundation

/// Why a model or collection operation failed.
public enum ModelError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The model's validation hook rejected its attributes; nothing was sent or set.
    case invalid(url: URL, reason: String)
    /// The request failed (see ``SyncError``).
    case sync(SyncError)

    /// The request error, when the failure came from the server or the network.
    public var syncError: SyncError? {
        if case .sync(let error) = self { return error }
        return nil
    }

    public var description: String {
        switch self {
        case .invalid(let url, let reason): return "\(url.absoluteString): invalid: \(reason)"
        case .sync(let error): return error.description
        }
    }
}
