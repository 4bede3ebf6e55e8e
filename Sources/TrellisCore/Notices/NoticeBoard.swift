/// The window's notices: at most one shown at a time, and the undo of the last one.
///
/// ```swift
/// shell.notify(tr("Deleted “%@”", title)) { restore(note) }
/// // the front end shows "Deleted “Groceries” · Undo"; pressing Undo, or Ctrl+Z while the
/// // page it was posted on is still on top, runs the closure once.
/// ```
///
/// A notice hides after its ``Notice/duration``, when another replaces it, or at the next
/// navigation (push or pop). Its undo outlives the notice on screen: ``undo()`` (the window's
/// `win.undo`, Ctrl+Z, when the page has nothing of its own to undo) still runs it while the
/// page it was posted on stays on top, and drops it as soon as that page is covered or popped.
/// An undo runs at most once.
@MainActor
public final class NoticeBoard {
    /// The notice on screen, if any.
    public private(set) var current: Notice?
    /// What ``undo()`` runs, and the page it belongs to.
    private var pendingUndo: (notice: Int, page: PageID?, action: @MainActor () -> Void)?
    /// What the button of the notice on screen runs when it is not an undo.
    private var buttonAction: (notice: Int, action: @MainActor () -> Void)?
    private var lastID = 0
    private unowned let shell: Shell
    /// How long a notice stays when its poster gives no duration: 8 seconds. Tests that read
    /// notices without a clock set a long one, so a busy machine cannot hide a notice before
    /// they look.
    public var defaultDuration: Duration = .seconds(8)

    init(shell: Shell) {
        self.shell = shell
    }

    /// Whether ``undo()`` would take something back now.
    public var canUndo: Bool {
        guard let pendingUndo else { return false }
        return pendingUndo.page == shell.navigator.top?.id
    }

    /// Shows `text` as a notice (replacing the one shown) for `duration` (by default
    /// ``defaultDuration``), with an `undo` button when given. Returns the notice.
    @discardableResult
    public func post(_ text: String, undoLabel: String = tr("Undo"), duration: Duration? = nil,
                     undo: (@MainActor () -> Void)? = nil) -> Notice {
        let duration = duration ?? defaultDuration
        lastID += 1
        let notice = Notice(id: lastID, text: text, undoLabel: undo == nil ? nil : undoLabel, duration: duration)
        pendingUndo = undo.map { (notice.id, shell.navigator.top?.id, $0) }
        show(notice)
        let id = notice.id
        Task { @MainActor [weak self] in
            try? await Task.sleep(for: duration)
            self?.expire(id)
        }
        shell.bus.trigger(Message.posted, ["text": .string(text), "undoable": .bool(undo != nil)])
        return notice
    }

    /// Shows `text` as a notice (replacing the one shown) for `duration` (by default
    /// ``defaultDuration``), with a button labelled `button` that hides it and runs `action`:
    /// "Plugins", opening the page that says more. Unlike an undo, Ctrl+Z never runs it.
    @discardableResult
    public func post(_ text: String, button: String, duration: Duration? = nil, action: @escaping @MainActor () -> Void) -> Notice {
        let duration = duration ?? defaultDuration
        lastID += 1
        let notice = Notice(id: lastID, text: text, undoLabel: nil, actionLabel: button, duration: duration)
        buttonAction = (notice.id, action)
        show(notice)
        let id = notice.id
        Task { @MainActor [weak self] in
            try? await Task.sleep(for: duration)
            self?.expire(id)
        }
        shell.bus.trigger(Message.posted, ["text": .string(text), "undoable": false])
        return notice
    }

    /// Presses the button of the notice on screen (what its button in the window does): its
    /// undo (``undo()``), or its action, hiding it. Returns `false` when it has no button.
    @discardableResult
    public func pressButton() -> Bool {
        guard let current else { return false }
        if current.undoLabel != nil { return undo() }
        guard let pending = buttonAction, pending.notice == current.id else { return false }
        buttonAction = nil
        show(nil)
        pending.action()
        return true
    }

    /// Takes back the change of the last notice with an undo, hiding it: the Undo button, or
    /// Ctrl+Z while its page is on top. Returns `false` when there is nothing to undo.
    @discardableResult
    public func undo() -> Bool {
        guard canUndo, let pending = pendingUndo else { return false }
        pendingUndo = nil
        if current?.id == pending.notice { show(nil) }
        pending.action()
        shell.bus.trigger(Message.undone)
        return true
    }

    /// Hides the notice on screen (its close button); its undo stays available (``undo()``).
    public func dismiss() {
        if current != nil { show(nil) }
    }

    /// A page was pushed or popped: the notice hides, and an undo whose page is no longer on
    /// top is dropped.
    func navigated() {
        dismiss()
        if let pendingUndo, pendingUndo.page != shell.navigator.top?.id { self.pendingUndo = nil }
    }

    private func expire(_ id: Int) {
        if current?.id == id { show(nil) }
    }

    private func show(_ notice: Notice?) {
        current = notice
        shell.frontend?.show(notice: notice)
    }

    /// The bus messages of notices.
    public enum Message {
        /// A notice was posted: `{"text", "undoable"}`.
        public static let posted = "notice:posted"
        /// A notice's undo ran.
        public static let undone = "notice:undone"
    }
}

extension Shell {
    /// Shows `text` in the window for a few seconds (`duration`, by default the board's
    /// ``NoticeBoard/defaultDuration``), with an Undo button running `undo` when given (see
    /// ``NoticeBoard``).
    @discardableResult
    public func notify(_ text: String, undoLabel: String = tr("Undo"), duration: Duration? = nil,
                       undo: (@MainActor () -> Void)? = nil) -> Notice {
        notices.post(text, undoLabel: undoLabel, duration: duration, undo: undo)
    }

    /// Shows `text` in the window with a button labelled `button` that runs `action` (see
    /// ``NoticeBoard/post(_:button:duration:action:)``).
    ///
    /// ```swift
    /// shell.notify(tr("The plugin “%@” failed to load", pluginName), button: tr("Plugins")) { [weak shell] in
    ///     try? shell?.navigate(to: "/plugins")
    /// }
    /// ```
    @discardableResult
    public func notify(_ text: String, button: String, duration: Duration? = nil, action: @escaping @MainActor () -> Void) -> Notice {
        notices.post(text, button: button, duration: duration, action: action)
    }

    /// What `win.undo` (Ctrl+Z) does: the page's own last unsaved change when it has one,
    /// else the undo of the last notice (``NoticeBoard/undo()``).
    public func undo() {
        if let top = navigator.top, top.canUndo {
            top.undo()
        } else if !notices.undo() {
            navigator.top?.undo()
        }
    }
}
