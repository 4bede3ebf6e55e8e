/// A security, validation or business control object (QuickConnect's SCO, ValCO, BCO): one
/// small step of a command, run off the main thread.
///
/// It reads the request's parameters and may add results to them for the objects after it
/// (the seeds' result accumulation). It may `await` (database, network); the seeds'
/// WAIT/resume is simply `await` here. Throwing hands the request to the error objects.
///
/// ```swift
/// struct NoteTitleValidation: ControlObject {
///     func handle(_ request: inout ControlRequest) async throws -> ControlResult {
///         let title = request.parameters["title"]?.stringValue ?? ""
///         guard !title.isEmpty else {
///             return .dispatchToError(command: "invalidNote", reason: "A note needs a title.")
///         }
///         return .continue
///     }
/// }
/// struct SaveNoteBusiness: ControlObject {
///     let store: NoteStore
///     func handle(_ request: inout ControlRequest) async throws -> ControlResult {
///         request.parameters["note"] = try await store.add(title: request.parameters["title"])
///         return .continue
///     }
/// }
/// ```
public protocol ControlObject: Sendable {
    /// Handles one request; may change its parameters.
    func handle(_ request: inout ControlRequest) async throws -> ControlResult
}

/// A view or error control object (QuickConnect's VCO, ECO): runs on the main actor, so it
/// may touch the user interface (under GTK the main actor is the GTK thread).
///
/// An error object finds what went wrong in `request.failure`.
///
/// ```swift
/// @MainActor final class ShowNotesView: ViewControlObject {
///     let window: NotesWindow
///     init(window: NotesWindow) { self.window = window }
///     func handle(_ request: inout ControlRequest) async throws -> ControlResult {
///         window.append(request.parameters["note"])
///         return .continue
///     }
/// }
/// ```
@MainActor
public protocol ViewControlObject {
    /// Handles one request (or, for an error object, one failed request).
    func handle(_ request: inout ControlRequest) async throws -> ControlResult
}
