/// A button added to a page from outside it — a plugin's command placed on the page's route —
/// with what pressing it does.
public struct ContributedPageAction {
    public let action: PageAction
    public let perform: @MainActor (PageController) -> Void

    public init(action: PageAction, perform: @escaping @MainActor (PageController) -> Void) {
        self.action = action
        self.perform = perform
    }
}

extension Shell {
    /// Adds buttons to pages: `provider` is asked, for each page a front end shows, which
    /// buttons to add after the page's own (``PageController/shownActions``).
    ///
    /// ```swift
    /// shell.contributePageActions { page in
    ///     page.values.pattern == "/notes/:id"
    ///         ? [ContributedPageAction(action: PageAction(id: "share", label: "Share")) { page in share(page.values) }]
    ///         : []
    /// }
    /// ```
    public func contributePageActions(_ provider: @escaping @MainActor (PageController) -> [ContributedPageAction]) {
        pageActionProviders.append(provider)
    }

    func contributedActions(for page: PageController) -> [ContributedPageAction] {
        pageActionProviders.flatMap { $0(page) }
    }
}

extension PageController {
    /// The buttons a front end shows for the page: its own ``actions``, then those contributed
    /// for it (``Shell/contributePageActions(_:)``), an id appearing once.
    public var shownActions: [PageAction] {
        var seen = Set(actions.map(\.id))
        let contributed = shell?.contributedActions(for: self).map(\.action).filter { seen.insert($0.id).inserted } ?? []
        return actions + contributed
    }

    /// Presses button `id` of ``shownActions``: the page's own (``perform(pageAction:)``) or a
    /// contributed one. False when the page shows no such button.
    @discardableResult
    public func press(pageAction id: String) -> Bool {
        if actions.contains(where: { $0.id == id }) {
            perform(pageAction: id)
            return true
        }
        guard let contributed = shell?.contributedActions(for: self).first(where: { $0.action.id == id }) else { return false }
        contributed.perform(self)
        return true
    }
}
