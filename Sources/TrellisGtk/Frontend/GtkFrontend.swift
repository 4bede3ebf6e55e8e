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
    /// Set by ``addContributedMenuItems(logger:)``: contributors' items are added from then on.
    var acceptsContributedMenuItems = false
    var contributedMenuLogger = Logger(trellis: "trellis.window")

    public init(shell: Shell, application: Application, title: String = "Trellis") {
        self.shell = shell
        self.application = application
        window = ShellWindow(application: application.pointer, title: title)
        shell.frontend = self
        window.onBack = { [weak self] in self?.goBack() }
        // `TableContainer.search`: the keystroke's result is in the frame that shows the
        // keystroke; only the first search of a long list waits for its rows to be folded.
        window.onSearchChanged = { [weak self] text in self?.searchTopPage(for: text) }
        shell.bus.watchOnMainActor("activity:changed", owner: self) { frontend, event in
            frontend.window.setActivity(event.data["active"]?.boolValue ?? false)
        }
        Actions.add("back", to: window.window, scope: "win", application: application.pointer,
                    accelerators: ["<Alt>Left", "Escape"]) { [weak self] in self?.goBack() }
        Actions.add("search", to: window.window, scope: "win", application: application.pointer,
                    accelerators: ["<Control>f"]) { [weak self] in self?.toggleSearch() }
        // Ctrl+S presses the default (first) action of the form on top: Save in an editor.
        Actions.add("save", to: window.window, scope: "win", application: application.pointer,
                    accelerators: ["<Control>s"]) { [weak self] in
            guard let form = self?.topView?.form, let action = form.actions.first else { return }
            form.press(action.id)
        }
        Actions.add("quit", to: application.pointer, scope: "app", application: application.pointer,
                    accelerators: ["<Control>q"]) { [weak self] in self?.application.quit() }
        installStandardActions()
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
        let view = PageView(content: page.content, renderers: renderers)
        views[ObjectIdentifier(page)] = view
        view.name = window.push(view.widget, title: page.title)
        showChrome(of: page, view: view)
        highlightCurrentSection()
    }

    public func navigator(_ navigator: Navigator, didPop page: PageController) {
        views[ObjectIdentifier(page)] = nil
        guard let top = navigator.top, let view = views[ObjectIdentifier(top)] else { return }
        window.pop(title: top.title)
        showChrome(of: top, view: view)
        highlightCurrentSection()
    }

    public func pageDidChange(_ page: PageController) {
        guard let view = views[ObjectIdentifier(page)] else { return }
        let isTop = page === shell.navigator.top
        if !view.shows(page.content) {
            let replacement = PageView(content: page.content, renderers: renderers)
            replacement.name = view.name
            views[ObjectIdentifier(page)] = replacement
            window.replace(view.name, with: replacement.widget)
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
        window.showMessage(page.message)
        view.markInvalid(page.message == nil ? nil : page.messageField, message: window.messageLabel)
        window.setPageActions(page.shownActions.map { ($0.id, $0.label, $0.icon) }) { [weak page] id in
            page?.press(pageAction: id)
        }
        let searchable = view.container?.isSearchable ?? false
        if searchable != window.isSearchable { window.setSearchable(searchable) }
        if restoringSearch, let container = view.container, container.searchText != window.searchText {
            window.setSearchText(container.searchText)
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

    /// Shows an error in the window's message area (navigation failures, unhandled errors).
    public func show(error: any Error) {
        window.showMessage(String(describing: error))
    }

    // MARK: - Inspection (automation)

    /// The view of the page on top, for automation.
    var currentView: PageView? { topView }
}
