extension Shell {
    /// Opens a path that came from outside the app — the command line, a second instance, a
    /// notification — as a deep link: only public routes open.
    ///
    /// Never throws: when the path is unknown, malformed or not public, the window stays where
    /// it was, the page on top shows the reason as its message, and the error is returned.
    ///
    /// ```swift
    /// if let error = shell.openExternalLink("/catalog/5") { logger.notice("\(error)") }
    /// ```
    @discardableResult
    public func openExternalLink(_ path: String) -> NavigationError? {
        do {
            try navigate(to: path, external: true)
            return nil
        } catch {
            logger.notice("external link refused", metadata: ["path": "\(path)", "error": "\(error)"])
            navigator.top?.message = error.description
            return error
        }
    }
}
