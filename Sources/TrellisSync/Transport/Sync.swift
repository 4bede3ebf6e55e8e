/// The synchronisation mechanism between models and a server (iStructure's sync classes;
/// Backbone's `Backbone.sync`): sends one JSON request and returns the answer.
///
/// ``BasicSync`` speaks JSON over HTTP; a model or collection can be given any other
/// implementation (a test double, another protocol, a local file).
///
/// ```swift
/// let sync: any Sync = BasicSync(settings: SyncSettings(bearerToken: token), bus: bus)
/// let response = try await sync.send(SyncRequest(.get, notesURL))
/// let count = response.body.arrayValue?.count
/// ```
///
/// An implementation answers 2xx responses and throws ``SyncError`` for everything else:
/// an HTTP error status, a timeout, an unreachable server, an answer that is not JSON,
/// a cancelled task, a URL the settings refuse.
public protocol Sync: Sendable {
    /// Sends `request` (with whatever retries the implementation makes) and returns the
    /// successful answer.
    func send(_ request: SyncRequest) async throws(SyncError) -> SyncResponse
}
