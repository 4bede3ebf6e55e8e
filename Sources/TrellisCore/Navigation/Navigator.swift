import Logging

/// The navigation stack of a window (iStructure's navigation controller), driven by routes.
///
/// `navigate(to:)` matches the path against the shell's routes:
/// - a **block** route runs its block;
/// - a **controller** route creates the page and pushes it when a front end provides a
///   navigation stack; without one, the page type's `start(values:shell:)` is called instead
///   (iStructure's `startWithValues:`).
///
/// An unknown path throws ``NavigationError/notFound(path:)`` and triggers `route:not-found`
/// with `{"path": …}`; it never crashes. A successful push triggers `route:navigated` with
/// `{"path", "pattern"}`; a pop triggers `route:back`.
@MainActor
public final class Navigator {
    /// The pages, bottom first.
    public private(set) var stack: [PageController] = []
    private unowned let shell: Shell

    init(shell: Shell) {
        self.shell = shell
    }

    /// The page on top, if any.
    public var top: PageController? { stack.last }

    /// The page with identity `id` while it is on the stack; nil once it was popped (or for
    /// nil): where a request's view and error objects show their results.
    public func page(_ id: PageID?) -> PageController? {
        guard let id else { return nil }
        return stack.last { $0.id == id }
    }

    /// Navigates to `path` (with an optional query string). `external` marks a deep link from
    /// outside the app (the command line, another instance, a notification): only public routes
    /// may be opened that way.
    public func navigate(to path: String, data: JSONValue = .null, external: Bool = false) throws(NavigationError) {
        let match: RouteMatch<RouteTarget>
        do {
            match = try shell.routes.match(path)
        } catch {
            let navigationError: NavigationError
            switch error {
            case .notFound: navigationError = .notFound(path: path)
            case .invalidPath(_, let reason): navigationError = .invalidPath(path: path, reason: reason)
            default: navigationError = .invalidPath(path: path, reason: error.description)
            }
            shell.logger.info("navigation failed", metadata: ["path": "\(path)", "error": "\(navigationError)"])
            shell.bus.trigger(RouteNotFound(path: path, error: navigationError.description))
            throw navigationError
        }
        if external && !match.isPublic {
            throw .notPublic(path: path, pattern: match.pattern.text)
        }
        let values = RouteValues(path: match.path, pattern: match.pattern.text, parameters: match.parameters,
                                 query: match.query, data: data, options: shell.routeOptions[match.id] ?? .null)
        switch match.target {
        case .block(let block):
            block(values)
        case .controller(let type, let action):
            guard let frontend = shell.frontend else {
                type.start(values: values, shell: shell)
                return
            }
            let page = type.init(values: values, shell: shell)
            if let action { page.perform(action: action) }
            stack.append(page)
            frontend.navigator(self, didPush: page)
            shell.notices.navigated()
            page.didAppear()
            shell.bus.trigger(RouteNavigated(path: values.path, pattern: values.pattern))
        }
    }

    /// Pops the top page; returns `false` (and does nothing) at the root.
    @discardableResult
    public func back() -> Bool {
        guard stack.count > 1, let page = stack.popLast() else { return false }
        // The page's watches would end when it is released; end them now so that a page kept
        // alive by a pending closure cannot receive events after it left the screen.
        shell.bus.unwatch(owner: page)
        shell.frontend?.navigator(self, didPop: page)
        shell.notices.navigated()
        top?.didAppear()
        shell.bus.trigger(RouteBack(path: page.values.path))
        return true
    }

    /// Pops every page above the root.
    public func popToRoot() {
        while back() {}
    }
}
