/// A short message shown inside the window for a few seconds, such as "Deleted “Groceries”",
/// with an optional button that takes the change back ("Undo").
///
/// A notice is what GNOME apps show after an action that can be taken back without asking
/// first (an in-app notification, a "toast"); post one with ``Shell/notify(_:undoLabel:duration:undo:)``.
public struct Notice: Sendable, Equatable, Identifiable {
    /// The notice's identity, unique for the life of the process.
    public let id: Int
    /// What happened, in a few words.
    public let text: String
    /// The label of the button taking the change back (`"Undo"`); `nil` when there is none.
    public let undoLabel: String?
    /// How long the notice stays before it hides by itself.
    public let duration: Duration

    public init(id: Int, text: String, undoLabel: String?, duration: Duration) {
        self.id = id
        self.text = text
        self.undoLabel = undoLabel
        self.duration = duration
    }
}
