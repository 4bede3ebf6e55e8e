/// A page of the application: iStructure's `ISViewController`, desktop-agnostic.
///
/// A route maps a pattern to a page type; navigating to a matching path creates the page with
/// the route's values and pushes it on the navigation stack. The page describes what it shows
/// as ``PageContent``; each front end renders that content its own way.
///
/// Watches a page makes with `shell.bus.watch(…, owner: self)` end by themselves when the page
/// is popped and released — no `unwatch` in `deinit`.
///
/// ```swift
/// final class NotePage: PageController {
///     required init(values: RouteValues, shell: Shell) {
///         super.init(values: values, shell: shell)
///         title = "Note \(values.parameters["id"] ?? "")"
///         content = .text("…")
///     }
/// }
/// try shell.route("/notes/:id", to: NotePage.self)
/// try shell.navigate(to: "/notes/7")
/// ```
@MainActor
open class PageController {
    /// The values the page was created with.
    public let values: RouteValues
    /// The page's identity: pass it with a request (``FrontController/submit(_:parameters:from:)``)
    /// and the request's view and error objects find this page, not whichever is on top.
    nonisolated public let id = PageID.next()
    /// The shell the page lives in (held weakly: the shell owns the navigation stack).
    public private(set) weak var shell: Shell?

    /// The title shown in the window's header bar.
    open var title: String = "" { didSet { if title != oldValue { changed() } } }
    /// What the page shows.
    open var content: PageContent = .text("") {
        didSet {
            if case .form(let form) = content { form.page = self }
            changed()
        }
    }
    /// A message shown above the content (validation errors, failures, or information when
    /// ``messageKind`` says so); `nil` hides it (and forgets ``messageField`` and
    /// ``messageKind``).
    open var message: String? {
        didSet {
            if message == nil {
                messageField = nil
                messageKind = .error
            }
            if message != oldValue { changed() }
        }
    }
    /// Whether ``message`` reports a problem (the default) or only informs ("Your unsaved
    /// changes are back"): front ends draw the two differently. Set it before the message.
    open var messageKind: PageMessageKind = .error { didSet { if messageKind != oldValue { changed() } } }
    /// The id of the form field ``message`` is about (the field a validation error names),
    /// if any: front ends mark that field invalid and tie the message to it. Set it before
    /// the message. The message goes as soon as the user edits that field: the field is no
    /// longer drawn as wrong while it is being put right.
    open var messageField: String? { didSet { if messageField != oldValue { changed() } } }
    /// Buttons for the page's own commands, shown in the window's header bar ("New note").
    open var actions: [PageAction] = [] { didSet { if actions != oldValue { changed() } } }

    /// Creates the page for a navigation (iStructure's `initWithValues:`).
    public required init(values: RouteValues, shell: Shell) {
        self.values = values
        self.shell = shell
    }

    /// Called on a new instance when its route was registered with an action
    /// (iStructure's `$routec(pattern, action)`). The default does nothing.
    open func perform(action: String) {}

    /// Called when one of ``actions`` is pressed. The default does nothing.
    open func perform(pageAction id: String) {}

    /// Whether ``undo()`` has something to undo (the page's unsaved changes). Default `false`.
    open var canUndo: Bool { false }
    /// Whether ``redo()`` has something to redo. Default `false`.
    open var canRedo: Bool { false }
    /// Undoes the page's last unsaved change (Ctrl+Z). The default does nothing.
    open func undo() {}
    /// Redoes the last undone change (Ctrl+Shift+Z). The default does nothing.
    open func redo() {}

    /// Whether the page waits for content it asked for elsewhere (a plugin's page waits for
    /// its plugin's answer): a headless front end's `settle()` waits until it has it, as it
    /// waits for the front controller's requests. A page that never gets it shows an error
    /// of its own in time (a plugin's pages after their deadline).
    open var isAwaitingContent: Bool { false }

    /// Called when there is no navigation stack to push a page on (iStructure's
    /// `startWithValues:`): a headless script, a service. The default creates no page and does
    /// nothing; override it to act without a window.
    open class func start(values: RouteValues, shell: Shell) {}

    /// Called after the page became the top of the stack (pushed, or uncovered by a pop).
    open func didAppear() {}

    /// The user edited field `id` of the page's form: a message about that field goes.
    func userEdited(field id: String) {
        if let messageField, messageField == id, message != nil { message = nil }
    }

    /// Tells the front end to show the page's new title, content or message.
    public func changed() {
        shell?.frontend?.pageDidChange(self)
    }
}

/// What a page's message is: a problem, or only information.
public enum PageMessageKind: Sendable, Equatable {
    /// A validation error or a failure.
    case error
    /// Something the person should know, that is not wrong.
    case information
}

/// A command of a page, shown as a button in the header bar.
///
/// ```swift
/// let approve = PageAction(id: "approve:weather", label: "Approve Weather",
///                          confirmation: .init(title: "Let “Weather” run?",
///                                              details: "It asks to connect to api.example.org:443.",
///                                              confirmLabel: "Approve"))
/// ```
public struct PageAction: Sendable, Equatable {
    public let id: String
    /// The text people read (and the accessible name of an icon button).
    public var label: String
    /// A symbolic icon name (e.g. `"list-add-symbolic"`); `nil` shows the label instead.
    public var icon: String?
    /// What the window asks before the action runs (a dialog with Cancel and
    /// ``Confirmation/confirmLabel``), or `nil` to run it at once. For what a person must
    /// decide knowing the details (approving what a plugin may do): the button's label alone
    /// does not say enough. A headless script's `press` is that decision already.
    public var confirmation: Confirmation?

    public init(id: String, label: String, icon: String? = nil, confirmation: Confirmation? = nil) {
        self.id = id
        self.label = label
        self.icon = icon
        self.confirmation = confirmation
    }

    /// The question a ``PageAction`` asks before it runs.
    public struct Confirmation: Sendable, Equatable {
        /// The question, in a sentence ("Let “Weather” run?").
        public var title: String
        /// What the person needs to know to answer, in full (never cut short on screen).
        public var details: String
        /// The label of the button that runs the action ("Approve"); the other one cancels.
        public var confirmLabel: String

        public init(title: String, details: String, confirmLabel: String) {
            self.title = title
            self.details = details
            self.confirmLabel = confirmLabel
        }
    }
}
