import CGtk
import CTrellisGtk
import Foundation
import TrellisCore

/// The shell's `GtkApplicationWindow`: a header bar (sidebar toggle, back button, title, search
/// toggle, activity spinner, primary menu), the sections' sidebar at the start (folded away
/// on a narrow window), and beside it a search bar, a `GtkStack` holding the navigation
/// stack's pages, and a status area at the bottom. Icon-only buttons have tooltips and accessible
/// labels; the title carries the badge count when there is one ("Catalog (3)").
///
/// Desktop-agnostic on purpose: plain GTK 4 widgets, no libadwaita, so it looks native under
/// GNOME, KDE, Xfce or a tiling window manager.
@MainActor
public final class ShellWindow {
    let window: ApplicationWindow
    let headerBar: HeaderBar
    let backButton: Button
    let searchButton: ToggleButton
    let spinner: Spinner
    /// The search bar, once a page that can be searched has been shown (``searchField``).
    private(set) var search: SearchField?
    let stack: Stack
    let statusLabel: Label
    let messageLabel: Label
    /// Holds the buttons of the page on top (``setPageActions(_:handler:)``).
    let pageActionsBox: Box
    var pageActionButtons: [String: Button] = [:]
    /// The page's actions and what pressing one does, also listed in the primary menu on a
    /// narrow window (`win.page-action`).
    var pageActions: [PageAction] = []
    var pageActionHandler: ((String) -> Void)?
    /// The question a page action asks before it runs, while it is asked
    /// (``pressPageAction(_:)``).
    var confirmationDialog: ConfirmationDialog?
    /// Below this width, in pixels, the page's buttons and the search toggle fold from the
    /// header bar into the primary menu, so that the window stays usable at 360 px (GNOME's
    /// smallest width).
    static let headerFoldingWidth: Int32 = 560
    /// Whether the page's buttons are folded into the menu now.
    private(set) var isHeaderFolded = false
    /// The app's sections beside the pages, and the header-bar toggle that shows or hides them.
    let sidebar = SectionSidebar()
    let sidebarButton: ToggleButton
    let sidebarFolding: SidebarFolding
    /// The primary menu at the end of the header bar.
    public let menu: PrimaryMenu
    /// The in-app notification over the page ("Deleted “Groceries” · Undo"), once a notice has
    /// been shown (``showNotice(_:undoLabel:)``): made then, the window's first frame is spared
    /// its widgets (1.7 M of the start's 194 M instructions on the main thread).
    private(set) var noticeBar: NoticeBar?
    /// Called when the notice's Undo button, or its close button, is pressed.
    var onNoticeUndo: (() -> Void)?
    var onNoticeClose: (() -> Void)?
    /// Where the notice bar is laid: over the page, at its top.
    private let pageArea: Overlay
    /// The page area, with the search bar (once made) and the message above it and the status
    /// line below.
    private let content: Box
    /// Tells screen readers of changes away from the focus (a notice).
    let announcer: Announcer

    /// Called when the window's focus widget changed (whether or not the window is active).
    var onFocusChanged: (() -> Void)?
    /// Called when the user asks to go back (back button, Alt+Left, Escape).
    public var onBack: (() -> Void)?
    /// Called as the search text changes.
    public var onSearchChanged: ((String) -> Void)?

    private var pageNames: [String] = []
    private var pageCounter = 0
    private var firstFrameHandlers: [() -> Void] = []
    private var firstFramePainted: Bool { firstFramePaintedAt != nil }
    /// When the first frame was painted: GLib's monotonic clock (`CLOCK_MONOTONIC` on Linux),
    /// in µs, read in the frame clock's first `after-paint`; nil until then.
    public private(set) var firstFramePaintedAt: Int64?
    private var nextFrameHandlers: [() -> Void] = []
    /// Widgets to photograph in the next painted frame (``captureNextFrame(of:_:)``).
    private var nextFrameCaptures: [(widget: () -> GObjectPointer?, handler: (Result<Screenshot.Frame, Screenshot.Failure>) -> Void)] = []
    /// The gaps between painted frames since ``measureFrameGaps()`` (benchmarks).
    private var frameGaps: (last: Int64?, longest: Int64, frames: Int)?
    private var pageTitle = ""
    /// The badge count shown after the title; 0 shows none.
    private(set) var badge = 0

    init(application: GObjectPointer, title: String) {
        // A new GtkWindow is not floating and not the caller's: GTK's list of toplevels owns it
        // until it is destroyed. The wrapper takes a reference of its own.
        window = ApplicationWindow(retaining: GObjectPointer(gtk_application_window_new(application.as())))
        gtk_window_set_default_size(window.object.as(), 720, 640)
        sidebarFolding = SidebarFolding(sidebar: sidebar, window: window)
        announcer = Announcer(window: window)

        headerBar = HeaderBar(gtk_header_bar_new())
        sidebarButton = ToggleButton(gtk_toggle_button_new())
        gtk_button_set_icon_name(sidebarButton.object.as(), "sidebar-show-symbolic")
        sidebarButton.setAccessibleName(tr("Show Sections"))
        gtk_header_bar_pack_start(headerBar.object.opaque, sidebarButton.widget)
        backButton = Button(gtk_button_new_from_icon_name("go-previous-symbolic"))
        backButton.setAccessibleName(tr("Back"))
        backButton.isVisible = false
        gtk_header_bar_pack_start(headerBar.object.opaque, backButton.widget)
        pageActionsBox = Box(gtk_box_new(GTK_ORIENTATION_HORIZONTAL, 6))
        gtk_header_bar_pack_start(headerBar.object.opaque, pageActionsBox.widget)
        spinner = Spinner(gtk_spinner_new())
        spinner.isVisible = false
        spinner.setAccessibleName(tr("Working…"))
        searchButton = ToggleButton(gtk_toggle_button_new())
        gtk_button_set_icon_name(searchButton.object.as(), "system-search-symbolic")
        searchButton.setAccessibleName(tr("Search"))
        searchButton.isVisible = false
        menu = PrimaryMenu()
        gtk_header_bar_pack_end(headerBar.object.opaque, menu.button.widget)
        gtk_header_bar_pack_end(headerBar.object.opaque, searchButton.widget)
        gtk_header_bar_pack_end(headerBar.object.opaque, spinner.widget)
        // Header-bar buttons are flat (a frame shows on hover and when pressed), as GNOME's
        // guidelines draw them. It also spares the first frame: with software rendering
        // (llvmpipe), a framed button's shadow and border are shaders compiled on first use,
        // about 20 ms before the window first appears.
        for button in [backButton, sidebarButton, searchButton] as [Button] {
            gtk_button_set_has_frame(button.object.as(), 0)
        }
        gtk_window_set_titlebar(window.object.as(), headerBar.widget)

        // An alert: a screen reader speaks a validation error or failure as it appears.
        messageLabel = Label(retaining: makeAlertLabel())
        messageLabel.addStyleClass("trellis-message")
        gtk_label_set_wrap(messageLabel.object.opaque, 1)
        gtk_label_set_xalign(messageLabel.object.opaque, 0)
        messageLabel.isVisible = false

        stack = Stack(gtk_stack_new())
        gtk_stack_set_transition_type(stack.object.opaque, GTK_STACK_TRANSITION_TYPE_SLIDE_LEFT_RIGHT)
        gtk_stack_set_transition_duration(stack.object.opaque, 150)
        gtk_widget_set_vexpand(stack.widget, 1)

        // Wrapped, even inside a word: a long status line (a sync failure beside the location)
        // must not hold the window wider than 360 px.
        statusLabel = Label()
        gtk_label_set_wrap_mode(statusLabel.object.opaque, PANGO_WRAP_WORD_CHAR)
        gtk_label_set_xalign(statusLabel.object.opaque, 0)
        statusLabel.addStyleClass("dim-label")
        gtk_widget_set_margin_start(statusLabel.widget, 12)
        gtk_widget_set_margin_end(statusLabel.widget, 12)
        gtk_widget_set_margin_top(statusLabel.widget, 4)
        gtk_widget_set_margin_bottom(statusLabel.widget, 4)
        statusLabel.isVisible = false
        pageArea = makeOverlay()
        content = Box(gtk_box_new(GTK_ORIENTATION_VERTICAL, 0))
        setTitle(title)

        gtk_box_append(content.object.as(), messageLabel.widget)
        gtk_widget_set_vexpand(pageArea.widget, 1)
        gtk_overlay_set_child(pageArea.object.as(), stack.widget)
        gtk_box_append(content.object.as(), pageArea.widget)
        gtk_box_append(content.object.as(), statusLabel.widget)
        gtk_widget_set_hexpand(content.widget, 1)
        let body = Box(gtk_box_new(GTK_ORIENTATION_HORIZONTAL, 0))
        gtk_box_append(body.object.as(), sidebar.container.widget)
        gtk_box_append(body.object.as(), content.widget)
        gtk_window_set_child(window.object.as(), body.widget)
        g_object_bind_property(sidebarButton.object.as(), "active", sidebar.container.object.as(), "visible",
                               GBindingFlags(rawValue: G_BINDING_BIDIRECTIONAL.rawValue | G_BINDING_SYNC_CREATE.rawValue))
        gtk_toggle_button_set_active(sidebarButton.object.as(), 1)

        sidebarFolding.onWidthChanged = { [weak self] width in self?.foldHeader(width < Self.headerFoldingWidth) }
        Actions.add("page-action", to: window.object, scope: "win", application: application, stringParameter: { [weak self] id in
            self?.pressPageAction(id)
        })
        window.connectNotify("focus-widget") { [weak self] in
            self?.announcer.focusMoved()
            self?.onFocusChanged?()
        }
        backButton.connect("clicked") { [weak self] in self?.onBack?() }
        window.connect("map") { [weak self] in
            guard let self, let clock = gtk_widget_get_frame_clock(self.window.widget) else { return }
            Signals.connect(GObjectPointer(clock), "after-paint") { [weak self] in self?.framePainted() }
        }
    }

    // MARK: - Notices

    /// Shows `text` in the notice bar over the page, with an Undo button labelled `undoLabel`
    /// when given; `nil` hides the bar. The bar is made for the first notice.
    func showNotice(_ text: String?, undoLabel: String?) {
        if text == nil && noticeBar == nil { return }
        let bar = noticeBar ?? {
            let bar = NoticeBar()
            bar.onUndo = { [weak self] in self?.onNoticeUndo?() }
            bar.onClose = { [weak self] in self?.onNoticeClose?() }
            gtk_overlay_add_overlay(pageArea.object.as(), bar.widget.widget)
            noticeBar = bar
            return bar
        }()
        bar.show(text, undoLabel: undoLabel)
    }

    // MARK: - Pages

    /// Pushes a page widget (owned by the stack from now on), shows it, and returns its name.
    /// The page is named `title` for screen readers (GTK would read its class name).
    @discardableResult
    func push(_ page: Widget, title: String) -> String {
        pageCounter += 1
        let name = "page-\(pageCounter)"
        // A screen reader reads the page on top only, not the pages kept under it.
        if let covered = pageNames.last.flatMap({ gtk_stack_get_child_by_name(stack.object.opaque, $0) }) {
            setAccessibleHidden(gobj(covered), true)
        }
        add(page, named: name, title: title)
        pageNames.append(name)
        gtk_stack_set_visible_child_full(stack.object.opaque, name, GTK_STACK_TRANSITION_TYPE_SLIDE_LEFT)
        update(title: title)
        return name
    }

    /// Removes the top page and shows the one below with `title`.
    public func pop(title: String) {
        guard pageNames.count > 1, let name = pageNames.popLast(),
              let child = gtk_stack_get_child_by_name(stack.object.opaque, name) else { return }
        gtk_stack_set_visible_child_full(stack.object.opaque, pageNames.last!, GTK_STACK_TRANSITION_TYPE_SLIDE_RIGHT)
        gtk_stack_remove(stack.object.opaque, child)
        if let uncovered = gtk_stack_get_child_by_name(stack.object.opaque, pageNames.last!) { setAccessibleHidden(gobj(uncovered), false) }
        update(title: title)
    }

    /// Replaces the widget of page `name` (its content changed), keeping its place.
    func replace(_ name: String, with page: Widget, title: String) {
        guard let child = gtk_stack_get_child_by_name(stack.object.opaque, name) else { return }
        let visible = gtk_stack_get_visible_child_name(stack.object.opaque).map { String(cString: $0) } == name
        gtk_stack_remove(stack.object.opaque, child)
        add(page, named: name, title: title)
        if visible {
            gtk_stack_set_visible_child_full(stack.object.opaque, name, GTK_STACK_TRANSITION_TYPE_NONE)
        } else {
            setAccessibleHidden(page.object, true)
        }
    }

    /// Adds `page` to the stack as `name`, its stack page named `title` for screen readers.
    private func add(_ page: Widget, named name: String, title: String) {
        gtk_stack_add_named(stack.object.opaque, page.widget, name)
        rename(page: name, title)
    }

    /// Names page `name` `title` for screen readers (GTK would read "GtkStackPage"); a name
    /// it has already is not set again (each change is a message on the accessibility bus).
    func rename(page name: String, _ title: String) {
        // The stack page is a GtkStackPage (a GtkAccessible), owned by the stack as long as
        // the page is in it.
        guard let child = gtk_stack_get_child_by_name(stack.object.opaque, name),
              let stackPage = gtk_stack_get_page(stack.object.opaque, child) else { return }
        if g_object_get_data(gobj(stackPage).as(), Self.pageNameKey).map({ String(cString: $0.assumingMemoryBound(to: CChar.self)) }) == title {
            return
        }
        g_object_set_data_full(gobj(stackPage).as(), Self.pageNameKey, g_strdup(title), g_free)
        setAccessibleLabel(gobj(stackPage), title)
    }

    /// Where a stack page keeps the name it was given (freed with the page).
    private static let pageNameKey = "trellis-page-name"

    /// The number of pages on the stack.
    var depth: Int { pageNames.count }

    /// Sets the page title (the header bar shows it, with the badge count if any).
    public func setTitle(_ title: String) {
        pageTitle = title
        showTitle()
    }

    /// Shows `count` after the title, as in "Catalog (3)" (the notification badge); 0 hides it.
    public func setBadge(_ count: Int) {
        badge = max(0, count)
        showTitle()
    }

    private func showTitle() {
        let shown = badge > 0 ? "\(pageTitle) (\(badge))" : pageTitle
        gtk_window_set_title(window.object.as(), shown)
    }

    private func update(title: String) {
        setTitle(title)
        backButton.isVisible = pageNames.count > 1
        showMessage(nil)
    }

    // MARK: - Chrome

    /// Folds the page's buttons and the search toggle into the primary menu (`true`: its
    /// "Search" item and Ctrl+F remain) or brings them back. GtkHeaderBar centres the title,
    /// so its narrowest width is twice its wider side: each button folded counts twice.
    private func foldHeader(_ folded: Bool) {
        guard folded != isHeaderFolded else { return }
        isHeaderFolded = folded
        pageActionsBox.isVisible = !folded
        searchButton.isVisible = isSearchable && !folded
        listFoldedPageActions()
    }

    /// Shows or hides the activity spinner.
    public func setActivity(_ active: Bool) {
        spinner.isVisible = active
        if active { gtk_spinner_start(spinner.object.opaque) } else { gtk_spinner_stop(spinner.object.opaque) }
    }

    /// Whether the activity spinner is shown (automation).
    var isActivityVisible: Bool { spinner.isVisible }

    /// Shows a line in the status area (`nil` hides it).
    public func setStatus(_ text: String?) {
        statusLabel.text = text ?? ""
        statusLabel.isVisible = text != nil
    }

    /// Shows a message above the page — a problem (an error, a validation message) or
    /// information, drawn differently (``WindowStyle``) — or hides it (`nil`).
    public func showMessage(_ text: String?, kind: PageMessageKind = .error) {
        messageLabel.text = text ?? ""
        messageLabel.isVisible = text != nil
        let classes = (kind == .error ? "trellis-error" : "trellis-information", kind == .error ? "trellis-information" : "trellis-error")
        gtk_widget_add_css_class(messageLabel.widget, classes.0)
        gtk_widget_remove_css_class(messageLabel.widget, classes.1)
    }

    /// Shows the search toggle for pages that can be searched.
    public func setSearchable(_ searchable: Bool) {
        isSearchable = searchable
        if searchable { _ = searchField }  // before the toggle shows: it is bound to the bar
        searchButton.isVisible = searchable && !isHeaderFolded
        if !searchable { setSearchActive(false) }
    }

    /// The search bar, made on first use above the page, its toggle bound to it.
    private var searchField: SearchField {
        if let search { return search }
        let field = SearchField(toggle: searchButton)
        field.onChanged = { [weak self] text in self?.onSearchChanged?(text) }
        gtk_box_prepend(content.object.as(), field.bar.widget)
        search = field
        return field
    }

    /// Whether the page on top can be searched (its toggle shows, unless folded into the menu).
    public private(set) var isSearchable = false

    /// Shows or hides the search bar (Ctrl+F, the search toggle); shown, it takes the focus
    /// unless `focus` is `false`. Hidden, it clears the search: no filter stays on a list
    /// without the field that shows it.
    public func setSearchActive(_ active: Bool, focus: Bool = true) {
        guard active || search != nil else { return }
        searchField.setActive(active, focus: focus)
    }

    /// The widget whose typing opens the search bar and goes into it (the list on screen), or
    /// none: typing in a form or on a button never searches.
    func setTypeToSearch(_ widget: Widget?) {
        guard widget != nil || search != nil else { return }
        searchField.setKeyCaptureWidget(widget)
    }

    public var isSearchActive: Bool { search?.isActive ?? false }

    /// The text in the search entry (automation).
    var searchText: String { search?.text ?? "" }

    /// Replaces the search text as typing would: letters typed on are inserted at the end,
    /// letters erased are deleted from it, so the field changes once, as it does for a
    /// keystroke (`search-changed` follows); other text replaces the whole.
    public func setSearchText(_ text: String) {
        guard !text.isEmpty || search != nil else { return }
        searchField.setText(text)
    }

    public func present() { gtk_window_present(window.object.as()) }

    // MARK: - Frames

    /// Runs `handler` once, right after the window's first frame is painted (GdkFrameClock
    /// `after-paint`); at once if that has happened already.
    public func afterFirstFrame(_ handler: @escaping () -> Void) {
        if firstFramePainted { handler() } else { firstFrameHandlers.append(handler) }
    }

    /// Runs `handler` once, right after the next frame is painted (a redraw is queued so
    /// one comes even when nothing changed). For automation and benchmarks: reached with
    /// `@_spi(Testing) import TrellisGtk`.
    @_spi(Testing)
    public func afterNextFrame(_ handler: @escaping () -> Void) {
        nextFrameHandlers.append(handler)
        window.queueDraw()
    }

    /// Runs `handler` after the next painted frame with what `widget` (asked for in that
    /// frame's `after-paint`) showed in it: the picture is taken there, before anything can
    /// ask for a redraw (see ``Screenshot/Frame``). A redraw is queued so one comes.
    func captureNextFrame(of widget: @escaping () -> GObjectPointer?,
                          _ handler: @escaping (Result<Screenshot.Frame, Screenshot.Failure>) -> Void) {
        nextFrameCaptures.append((widget, handler))
        window.queueDraw()
    }

    /// Starts measuring the gaps between painted frames: ``frameGapsSoFar`` says the longest
    /// since, in µs, and how many frames were painted. The window is drawn again at every
    /// frame of its clock meanwhile (as an animation would be: the automation turns GTK's off),
    /// so that a gap is time the main loop was held, not time nothing asked for a frame. For
    /// benchmarks: reached with `@_spi(Testing) import TrellisGtk`.
    @_spi(Testing)
    public func measureFrameGaps() {
        let measuring = frameGaps != nil
        frameGaps = (nil, 0, 0)
        guard !measuring else { return }
        FrameTicks.repeatUntilDone(on: window, frames: .max) { [weak self] in
            guard let self else { return true }
            window.queueDraw()
            return false
        }
    }

    /// The longest gap between painted frames since ``measureFrameGaps()``, in µs, and the
    /// frames painted; nil when not measuring.
    @_spi(Testing)
    public var frameGapsSoFar: (longest: Int64, frames: Int)? {
        frameGaps.map { ($0.longest, $0.frames) }
    }

    private func framePainted() {
        if let gaps = frameGaps {
            let now = Int64(g_get_monotonic_time())
            frameGaps = (now, max(gaps.longest, gaps.last.map { now - $0 } ?? 0), gaps.frames + 1)
        }
        var handlers = nextFrameHandlers
        nextFrameHandlers = []
        handlers += nextFrameCaptures.map { capture in
            let frame = Screenshot.frame(of: capture.widget())
            return { capture.handler(frame) }
        }
        nextFrameCaptures = []
        if !firstFramePainted {
            firstFramePaintedAt = Int64(g_get_monotonic_time())
            handlers = firstFrameHandlers + handlers
            firstFrameHandlers = []
        }
        guard !handlers.isEmpty else { return }
        // Run outside the frame clock's signal emission: a handler may render (screenshots)
        // or quit, which GTK does not expect from inside `after-paint`.
        DispatchQueue.main.async { MainActor.assumeIsolated { handlers.forEach { $0() } } }
    }
}
