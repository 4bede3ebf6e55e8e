/// A short message shown inside the window for a few seconds, such as "Deleted “Groceries”",
/// with an optional button: one that takes the change back ("Undo"), or one that opens what
/// the notice is about ("Plugins").
///
/// A notice is what GNOME apps show after an action that can be taken back without asking
/// first (an in-app notification, a "toast"); post one with ``Shell/notify(_:undoLabel:duration:undo:)``,
/// or with ``Shell/notify(_:button:duration:action:)`` for a button that is not an undo.
public struct Notice: Sendable, Equatable, Identifiable {
    /// The notice's identity, unique for the life of the process.
    public let id: Int
    /// What happened, in a few words.
    public let text: String
    /// The label of the button taking the change back (`"Undo"`); `nil` when there is none.
    public let undoLabel: String?
    /// The label of a button that does something other than undo (`"Plugins"`: opens that
    /// page); `nil` when there is none. Ctrl+Z never presses it.
    public let actionLabel: String?
    /// How long the notice stays before it hides by itself.
    public let duration: Duration

    public init(id: Int, text: String, undoLabel: String?, actionLabel: String? = nil, duration: Duration) {
        self.id = id
        self.text = text
        self.undoLabel = undoLabel
        self.actionLabel = actionLabel
        self.duration = duration
    }

    /// The label of the notice's one button, whichever it is: what a front end shows.
    public var buttonLabel: String? { undoLabel ?? actionLabel }
}
