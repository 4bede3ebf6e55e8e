/// Where the keyboard focus goes after an action: to what the action created or changed.
extension TableContainer {
    /// Asks front ends to move the keyboard focus to the row of item `id` — a note just saved
    /// from its editor, say — as soon as the table shows that row: at once when it does, or
    /// when it appears (a fetched source shows a saved record once the store has told it). A
    /// later request replaces this one; a front end that focused the row, or the person moving
    /// the focus meanwhile, ends it (``endFocusRequest()``).
    ///
    /// ```swift
    /// shell.back()
    /// if case .table(let notes) = shell.navigator.top?.content { notes.requestFocus(on: TableItemID(savedID)) }
    /// ```
    public func requestFocus(on id: TableItemID) {
        focusRequest = id
        focusObservers.announce(id)
    }

    /// Ends the focus request: its row has the focus, or the focus went elsewhere.
    public func endFocusRequest() {
        focusRequest = nil
    }

    /// Registers `observer` for focus requests, as long as the token lives.
    public func onFocusRequest(_ observer: @escaping @MainActor (TableItemID) -> Void) -> ObservationToken {
        focusObservers.observe(observer)
    }
}
