/// What a front end implements so the shell can show pages: the GTK window
/// (`TrellisGtk.GtkFrontend`) and the text renderer (`TrellisHeadless.HeadlessFrontend`).
///
/// One small contract, several implementations (as swift-log's `LogHandler`): the core tells
/// the front end what changed; the front end decides how it looks. Everything else a front end
/// shows (the activity spinner, the status area) it learns from the event bus.
@MainActor
public protocol Frontend: AnyObject {
    /// A page was pushed on the navigation stack and is now on top.
    func navigator(_ navigator: Navigator, didPush page: PageController)
    /// The top page was popped; `navigator.top` is now shown.
    func navigator(_ navigator: Navigator, didPop page: PageController)
    /// A page's title, content or message changed.
    func pageDidChange(_ page: PageController)
    /// Shows a line in the window's status area (`nil` hides it): the app's own news, such as
    /// the last position the location service reported.
    func showStatus(_ text: String?)
    /// Shows a notice in the window (`nil` hides it): a line such as "Deleted “Groceries”"
    /// with its Undo button, which calls ``NoticeBoard/undo()`` (see ``Shell/notify(_:undoLabel:duration:undo:)``).
    /// The default shows nothing.
    func show(notice: Notice?)
    /// The shell's ``Shell/sections`` changed: show the new list. The default shows nothing.
    func sectionsDidChange()
    /// `contributor` was added to ``Shell/menuContributors`` while this front end shows the
    /// shell: add its items to the menu. The default shows nothing.
    func menuContributorAdded(_ contributor: any MenuItemContributor)
}

extension Frontend {
    public func show(notice: Notice?) {}
    public func sectionsDidChange() {}
    public func menuContributorAdded(_ contributor: any MenuItemContributor) {}
}
