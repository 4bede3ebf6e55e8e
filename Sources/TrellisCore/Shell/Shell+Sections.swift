extension Shell {
    /// The section the page on top belongs to (the one whose path is the longest prefix of the
    /// page's path); `nil` when no section holds it, as for a hub page at `/`.
    public var currentSection: ShellSection? {
        guard let path = navigator.top?.values.path else { return nil }
        return section(containing: path)
    }

    /// The section holding the page at `path`: of the ``sections`` that contain it
    /// (``ShellSection/contains(_:)``), the one with the longest path.
    public func section(containing path: String) -> ShellSection? {
        sections.filter { $0.contains(path) }.max { $0.path.count < $1.path.count }
    }

    /// Opens `section` in one step from anywhere: pops the navigation stack to its root page,
    /// then opens the section's path above it, so Back from a section leads to the root.
    ///
    /// ```swift
    /// try shell.open(section: shell.sections[0])
    /// ```
    public func open(section: ShellSection) throws(NavigationError) {
        navigator.popToRoot()
        if navigator.top?.values.path == section.path { return }
        try navigate(to: section.path)
    }
}
