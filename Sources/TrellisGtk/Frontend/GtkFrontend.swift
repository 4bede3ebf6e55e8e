import CGtk
import Foundation
import Logging
import TrellisCore

/// The GTK 4 front end: shows a ``Shell``'s navigation stack in a ``ShellWindow``.
///
/// It renders each page's ``PageContent`` (tables as virtual list views, forms, text, custom
/// content through the ``GtkContentRenderer`` registered for its model), keeps
/// the header bar in step (title, back button, search toggle for searchable tables), shows the
/// activity spinner while the bus says `activity:changed` with `active: true`, and binds the
/// standard keys: Alt+Left and Escape go back, F9 shows or hides the sections' sidebar, Ctrl+F toggles search, Ctrl+Z and Ctrl+Shift+Z
/// undo and redo the page's unsaved changes, Ctrl+Q quits.
///
/// ```swift
/// let app = Application(id: "org.example.App")
/// app.onActivate = { app in
///     let frontend = GtkFrontend(shell: shell, application: app)
///     try? shell.navigate(to: "/")
///     frontend.window.present()
/// }
/// ```
@MainActor
public final class GtkFrontend: Frontend {
    /// The shell, which owns this front end (set as its `frontend` by `init`).
    public unowned let shell: Shell
    public let window: ShellWindow
    public let application: Application
    private var views: [ObjectIdentifier: PageView] = [:]
    private var renderers = GtkContentRenderers()
    /// Called once when the next search of the page on top has finished (applied, or
    /// replaced by a later one): the automation's `search` answers at the frame after it.
    var afterNextSearch: [@MainActor () -> Void] = []
    /// Whether the keyboard focus was in the sidebar at its last move.
    private var focusWasInSidebar = false
    /// Set by ``addContributedMenuItems(logger:)``: contributors' items are added from then on.
    var acceptsContributedMenuItems = false
    var contributedMenuLogger = Logger(trellis: "trellis.window")

    public init(shell: Shell, application: Application, title: String = "Trellis") {
        self.shell = shell
        self.application = application
        window = ShellWindow(application: application.pointer, title: title)
        WindowStyle.install()
        shell.frontend = self
        window.onBack = { [weak self] in self?.goBack() }
        window.onFocusChanged = { [weak self] in self?.focusChanged() }
        // `TableContainer.search`: the keystroke's result is in the frame that shows the
        // keystroke; only the first search of a long list waits for its rows to be folded.
        window.onSearchChanged = { [weak self] text in self?.searchTopPage(for: text) }
        shell.bus.watchOnMainActor(NetworkActivity.changed, owner: self) { frontend, event in
            frontend.window.setActivity(event.data["active"]?.boolValue ?? false)
        }
        Actions.add("back", to: window.window.object, scope: "win", application: application.pointer,
                    accelerators: ["<Alt>Left", "Escape"]) { [weak self] in self?.goBack() }
        Actions.add("search", to: window.window.object, scope: "win", application: application.pointer,
                    accelerators: ["<Control>f"]) { [weak self] in self?.toggleSearch() }
        // Ctrl+S presses the default (first) action of the form on top: Save in an editor.
        Actions.add("save", to: window.window.object, scope: "win", application: application.pointer,
                    accelerators: ["<Control>s"]) { [weak self] in
            guard let form = self?.topView?.form, let action = form.actions.first else { return }
            form.press(action.id)
        }
        Actions.add("quit", to: application.pointer, scope: "app", application: application.pointer,
                    accelerators: ["<Control>q"]) { [weak self] in self?.application.quit() }
        installStandardActions()
        installShortcutsWindow()
        installNotificationDisplay()
        installNoticeDisplay()
        installSections()
    }

    /// Registers the renderer that builds the widget of custom content whose model is a
    /// `Renderer.Model` (see ``GtkContentRenderer``); pages shown afterwards use it.
    ///
    /// ```swift
    /// frontend.register(TemperatureChart())
    /// try shell.navigate(to: "/temperatures")
    /// ```
    public func register<Renderer: GtkContentRenderer>(_ renderer: Renderer) {
        renderers.register(renderer)
    }

    // MARK: - Frontend

    public func navigator(_ navigator: Navigator, didPush page: PageController) {
        let view = PageView(content: page.content, renderers: renderers, title: page.title)
        views[ObjectIdentifier(page)] = view
        view.name = window.push(view.widget, title: page.title)
        showChrome(of: page, view: view)
        highlightCurrentSection()
        window.focus(page: view.defaultFocus)
    }

    public func navigator(_ navigator: Navigator, didPop page: PageController) {
        views[ObjectIdentifier(page)] = nil
        guard let top = navigator.top, let view = views[ObjectIdentifier(top)] else { return }
        window.pop(title: top.title)
        showChrome(of: top, view: view)
        highlightCurrentSection()
        window.focus(page: view.defaultFocus)
    }

    public func pageDidChange(_ page: PageController) {
        guard let view = views[ObjectIdentifier(page)] else { return }
        let isTop = page === shell.navigator.top
        if !view.shows(page.content) {
            let replacement = PageView(content: page.content, renderers: renderers, title: page.title)
            replacement.name = view.name
            views[ObjectIdentifier(page)] = replacement
            window.replace(view.name, with: replacement.widget, title: page.title)
            // What the search field holds applies to the page's new list too.
            if isTop, window.isSearchActive, !window.searchText.isEmpty { searchTopPage(for: window.searchText) }
        }
        // The same page changed (its actions, its message): the search field keeps what was
        // typed, even while that search is still being applied to the list.
        if isTop, let view = views[ObjectIdentifier(page)] { showChrome(of: page, view: view, restoringSearch: false) }
    }

    public func showStatus(_ text: String?) {
        window.setStatus(text)
    }

    // MARK: - Chrome

    private var topView: PageView? {
        shell.navigator.top.flatMap { views[ObjectIdentifier($0)] }
    }

    /// Searches the list of the page on top for `text` (`TableContainer.search`): the result
    /// is shown in the frame after the keystroke, except on the first search of a long list,
    /// whose rows are folded first while the window goes on drawing; a keystroke typed
    /// meanwhile replaces that search.
    private func searchTopPage(for text: String) {
        guard let view = topView, let container = view.container else { return }
        Task { @MainActor [weak self, weak view] in
            await container.search(text)
            view?.refreshPlaceholder()
            guard let self else { return }
            let handlers = afterNextSearch
            afterNextSearch = []
            handlers.forEach { $0() }
        }
    }

    /// The window's title, message, page actions and search field for `page`, shown now;
    /// `restoringSearch`: the field shows what was searched on that page (it has just come
    /// to the top).
    private func showChrome(of page: PageController, view: PageView, restoringSearch: Bool = true) {
        window.setTitle(page.title)
        window.rename(page: view.name, page.title)
        view.title = page.title
        window.showMessage(page.message, kind: page.messageKind)
        // The focus goes to a field newly found invalid: a screen reader reads it with the message;
        // another new message is announced where the focus is.
        if let invalid = view.markInvalid(page.message == nil ? nil : page.messageField, message: window.messageLabel) {
            // (A field being typed in keeps its focus, and its text unselected.)
            if !invalid.isFocus && !invalid.focusIsInside { gtk_widget_grab_focus(invalid.widget) }
        } else if let message = page.message, message != view.announcedMessage {
            window.announce(message)
        }
        view.announcedMessage = page.message
        window.setPageActions(page.shownActions) { [weak page] id in
            page?.press(pageAction: id)
        }
        let searchable = view.container?.isSearchable ?? false
        if searchable != window.isSearchable { window.setSearchable(searchable) }
        // Typing searches only while the list has the focus (not in a form, not on a button).
        window.setTypeToSearch(searchable ? view.list?.focusTarget : nil)
        if restoringSearch, let container = view.container, container.searchText != window.searchText {
            window.setSearchText(container.searchText)
            // A filter is never hidden: the field shows it whenever it narrows the list.
            if !container.searchText.isEmpty && !window.isSearchActive { window.setSearchActive(true, focus: false) }
        }
    }

    /// A list is one stop of the Tab order, and that stop is a row: the focus GTK 4.8 gives the
    /// scrolled window around a list (entering it from outside) goes on to a row, once the
    /// current focus change is over.
    private func focusChanged() {
        // The keyboard entering the sidebar (Shift+Tab from the page) lands on the current
        // section, not on whichever row GTK would pick (a click keeps the row it is on).
        let sidebar = window.sidebar
        let enteredSidebar = sidebar.hasFocus && !focusWasInSidebar
        focusWasInSidebar = sidebar.hasFocus
        if enteredSidebar && !sidebar.currentRowHasFocus && !window.isPointerButtonDown {
            DispatchQueue.main.async { MainActor.assumeIsolated { sidebar.focusCurrentRow() } }
        }
        guard let list = topView?.list, list.scroller.isFocus || list.focusTarget.isFocus else { return }
        DispatchQueue.main.async { [weak list] in
            MainActor.assumeIsolated {
                guard let list, list.scroller.isFocus || list.focusTarget.isFocus, !list.enterList() else { return }
                // No row widget yet (the first frame is still to come): after the next frames.
                FrameTicks.repeatUntilDone(on: list.widget, frames: 10) { [weak list] in
                    guard let list, list.scroller.isFocus || list.focusTarget.isFocus else { return true }
                    return list.enterList()
                }
            }
        }
    }

    private func goBack() {
        if window.isSearchActive {
            window.setSearchActive(false)
            return
        }
        shell.back()
    }

    private func toggleSearch() {
        guard window.isSearchable else { return }
        window.setSearchActive(!window.isSearchActive)
    }

    /// Shows an error in the window's message area (navigation failures, unhandled errors): as
    /// the message of the page on top, which stays while the page does (shown in the window
    /// alone, it would go at the page's next update), or the window's when no page is open.
    public func show(error: any Error) {
        if let page = shell.navigator.top {
            page.messageKind = .error
            page.message = String(describing: error)
        } else {
            window.showMessage(String(describing: error))
        }
    }

    // MARK: - Inspection (automation)

    /// The view of the page on top, for automation.
    var currentView: PageView? { topView }
}
