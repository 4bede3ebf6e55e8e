/// A top-level section of an application: a place a person reaches in one step from anywhere,
/// as a row of the window's sidebar and an item of the primary menu (Alt+1, Alt+2, …).
///
/// An app declares its sections on the shell (``Shell/sections``); the front ends show them
/// and ``Shell/open(section:)`` opens one.
///
/// ```swift
/// shell.sections = [
///     ShellSection(title: tr("Notes"), path: "/notes", iconName: "accessories-text-editor-symbolic",
///                  summary: tr("Write, edit and search your notes")),
///     ShellSection(title: tr("People"), path: "/people"),
/// ]
/// ```
public struct ShellSection: Sendable, Hashable {
    /// What people read: the sidebar row's text, the menu item's label (translated).
    public var title: String
    /// The route the section opens, such as `"/notes"`; pages under it (`/notes/42`) belong to it.
    public var path: String
    /// A themed icon name shown before the title, such as `"folder-symbolic"`; `nil` for none.
    public var iconName: String?
    /// One line saying what the section holds (translated), for a page that lists the sections
    /// with more room than the sidebar, such as an app's home page; the window's sidebar shows
    /// it as its row's tooltip, which a screen reader reads after the title. `nil` for none.
    public var summary: String?

    public init(title: String, path: String, iconName: String? = nil, summary: String? = nil) {
        self.title = title
        self.path = path
        self.iconName = iconName
        self.summary = summary
    }

    /// Whether the page at `pagePath` belongs to this section: it is the section's path or
    /// below it, segment by segment (`/notes/42` is in `/notes`, `/notes-per-day` is not). A
    /// query string is ignored.
    public func contains(_ pagePath: String) -> Bool {
        let bare = pagePath.split(separator: "?", maxSplits: 1, omittingEmptySubsequences: false).first.map(String.init) ?? pagePath
        if bare == path { return true }
        let prefix = path.hasSuffix("/") ? path : path + "/"
        return bare.hasPrefix(prefix)
    }
}
