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
    let window: GObjectPointer
    let headerBar: GObjectPointer
    let backButton: GObjectPointer
    let searchButton: GObjectPointer
    let spinner: GObjectPointer
    let searchBar: GObjectPointer
    let searchEntry: GObjectPointer
    let stack: GObjectPointer
    let statusLabel: GObjectPointer
    let messageLabel: GObjectPointer
    /// Holds the buttons of the page on top (``setPageActions(_:handler:)``).
    let pageActionsBox: GObjectPointer
    private(set) var pageActionButtons: [String: GObjectPointer] = [:]
    /// The app's sections beside the pages, and the header-bar toggle that shows or hides them.
    let sidebar = SectionSidebar()
    let sidebarButton: GObjectPointer
    let sidebarFolding: SidebarFolding
    /// The primary menu at the end of the header bar.
    public let menu: PrimaryMenu
    /// The in-app notification over the page ("Deleted “Groceries” · Undo").
    public let noticeBar = NoticeBar()

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
    /// The gaps between painted frames since ``measureFrameGaps()`` (benchmarks).
    private var frameGaps: (last: Int64?, longest: Int64, frames: Int)?
    private var pageTitle = ""
    /// The badge count shown after the title; 0 shows none.
    private(set) var badge = 0

    init(application: GObjectPointer, title: String) {
        window = GObjectPointer(gtk_application_window_new(application.as()))!
        gtk_window_set_default_size(window.as(), 720, 640)
        sidebarFolding = SidebarFolding(sidebar: sidebar, window: window)

        headerBar = GObjectPointer(gtk_header_bar_new())!
        sidebarButton = GObjectPointer(gtk_toggle_button_new())!
        gtk_button_set_icon_name(sidebarButton.as(), "sidebar-show-symbolic")
        setAccessibleName(sidebarButton, tr("Show Sections"))
        gtk_header_bar_pack_start(headerBar.opaque, sidebarButton.as())
        backButton = GObjectPointer(gtk_button_new_from_icon_name("go-previous-symbolic"))!
        setAccessibleName(backButton, tr("Back"))
        gtk_widget_set_visible(backButton.as(), 0)
        gtk_header_bar_pack_start(headerBar.opaque, backButton.as())
        pageActionsBox = GObjectPointer(gtk_box_new(GTK_ORIENTATION_HORIZONTAL, 6))!
        gtk_header_bar_pack_start(headerBar.opaque, pageActionsBox.as())
        spinner = GObjectPointer(gtk_spinner_new())!
        gtk_widget_set_visible(spinner.as(), 0)
        setAccessibleName(spinner, tr("Working…"))
        searchButton = GObjectPointer(gtk_toggle_button_new())!
        gtk_button_set_icon_name(searchButton.as(), "system-search-symbolic")
        setAccessibleName(searchButton, tr("Search"))
        gtk_widget_set_visible(searchButton.as(), 0)
        menu = PrimaryMenu()
        gtk_header_bar_pack_end(headerBar.opaque, menu.button.as())
        gtk_header_bar_pack_end(headerBar.opaque, searchButton.as())
        gtk_header_bar_pack_end(headerBar.opaque, spinner.as())
        // Header-bar buttons are flat (a frame shows on hover and when pressed), as GNOME's
        // guidelines draw them. It also spares the first frame: with software rendering
        // (llvmpipe), a framed button's shadow and border are shaders compiled on first use,
        // about 20 ms before the window first appears.
        gtk_button_set_has_frame(backButton.as(), 0)
        gtk_button_set_has_frame(sidebarButton.as(), 0)
        gtk_button_set_has_frame(searchButton.as(), 0)
        gtk_window_set_titlebar(window.as(), headerBar.as())

        searchEntry = GObjectPointer(gtk_search_entry_new())!
        gtk_widget_set_hexpand(searchEntry.as(), 1)
        // Filtering is local and fast: each keystroke shows its result at once, instead of after
        // GTK's default 150 ms pause (measured: `trellis-bench typing`).
        gtk_search_entry_set_search_delay(searchEntry.opaque, 0)
        searchBar = GObjectPointer(gtk_search_bar_new())!
        gtk_search_bar_set_child(searchBar.opaque, searchEntry.as())
        gtk_search_bar_connect_entry(searchBar.opaque, searchEntry.opaque)
        gtk_search_bar_set_show_close_button(searchBar.opaque, 1)
        // Screen readers would read "GtkSearchEntry" and "GtkImage" (the close button) otherwise.
        setAccessibleLabel(searchEntry, tr("Search"))
        Self.nameButtons(in: searchBar.as(), tr("Close search"))
        g_object_bind_property(searchButton.as(), "active", searchBar.as(), "search-mode-enabled",
                               GBindingFlags(rawValue: G_BINDING_BIDIRECTIONAL.rawValue | G_BINDING_SYNC_CREATE.rawValue))

        // An alert: a screen reader speaks a validation error or failure as it appears.
        messageLabel = makeAlertLabel()
        addStyleClass(messageLabel, "error")
        gtk_label_set_wrap(messageLabel.opaque, 1)
        gtk_widget_set_margin_start(messageLabel.as(), 12)
        gtk_widget_set_margin_end(messageLabel.as(), 12)
        gtk_widget_set_visible(messageLabel.as(), 0)

        stack = GObjectPointer(gtk_stack_new())!
        gtk_stack_set_transition_type(stack.opaque, GTK_STACK_TRANSITION_TYPE_SLIDE_LEFT_RIGHT)
        gtk_stack_set_transition_duration(stack.opaque, 150)
        gtk_widget_set_vexpand(stack.as(), 1)

        statusLabel = GObjectPointer(gtk_label_new(nil))!
        gtk_label_set_xalign(statusLabel.opaque, 0)
        addStyleClass(statusLabel, "dim-label")
        gtk_widget_set_margin_start(statusLabel.as(), 12)
        gtk_widget_set_margin_top(statusLabel.as(), 4)
        gtk_widget_set_margin_bottom(statusLabel.as(), 4)
        gtk_widget_set_visible(statusLabel.as(), 0)
        setTitle(title)

        let content = GObjectPointer(gtk_box_new(GTK_ORIENTATION_VERTICAL, 0))!
        gtk_box_append(content.as(), searchBar.as())
        gtk_box_append(content.as(), messageLabel.as())
        let pageArea = GObjectPointer(gtk_overlay_new())!
        gtk_widget_set_vexpand(pageArea.as(), 1)
        gtk_overlay_set_child(pageArea.as(), stack.as())
        gtk_overlay_add_overlay(pageArea.as(), noticeBar.widget.as())
        gtk_box_append(content.as(), pageArea.as())
        gtk_box_append(content.as(), statusLabel.as())
        gtk_widget_set_hexpand(content.as(), 1)
        let body = GObjectPointer(gtk_box_new(GTK_ORIENTATION_HORIZONTAL, 0))!
        gtk_box_append(body.as(), sidebar.container.as())
        gtk_box_append(body.as(), content.as())
        gtk_window_set_child(window.as(), body.as())
        g_object_bind_property(sidebarButton.as(), "active", sidebar.container.as(), "visible",
                               GBindingFlags(rawValue: G_BINDING_BIDIRECTIONAL.rawValue | G_BINDING_SYNC_CREATE.rawValue))
        gtk_toggle_button_set_active(sidebarButton.as(), 1)
        gtk_search_bar_set_key_capture_widget(searchBar.opaque, window.as())

        Signals.connect(backButton, "clicked") { [weak self] _ in self?.onBack?() }
        Signals.connect(searchEntry, "search-changed") { [weak self] entry in
            guard let self else { return }
            self.onSearchChanged?(String(cString: gtk_editable_get_text(entry.opaque)))
        }
        Signals.connect(window, "map") { [weak self] window in
            guard let clock = gtk_widget_get_frame_clock(window.as()) else { return }
            Signals.connect(GObjectPointer(clock), "after-paint") { _ in self?.framePainted() }
        }
    }

    // MARK: - Pages

    /// Pushes a page widget (owned by the stack from now on), shows it, and returns its name.
    @discardableResult
    func push(_ page: GObjectPointer, title: String) -> String {
        pageCounter += 1
        let name = "page-\(pageCounter)"
        // A screen reader reads the page on top only, not the pages kept under it.
        if let covered = pageNames.last.flatMap({ gtk_stack_get_child_by_name(stack.opaque, $0) }) {
            setAccessibleHidden(gobj(covered), true)
        }
        gtk_stack_add_named(stack.opaque, page.as(), name)
        pageNames.append(name)
        gtk_stack_set_visible_child_full(stack.opaque, name, GTK_STACK_TRANSITION_TYPE_SLIDE_LEFT)
        update(title: title)
        return name
    }

    /// Removes the top page and shows the one below with `title`.
    public func pop(title: String) {
        guard pageNames.count > 1, let name = pageNames.popLast(),
              let child = gtk_stack_get_child_by_name(stack.opaque, name) else { return }
        gtk_stack_set_visible_child_full(stack.opaque, pageNames.last!, GTK_STACK_TRANSITION_TYPE_SLIDE_RIGHT)
        gtk_stack_remove(stack.opaque, child)
        if let uncovered = gtk_stack_get_child_by_name(stack.opaque, pageNames.last!) { setAccessibleHidden(gobj(uncovered), false) }
        update(title: title)
    }

    /// Replaces the widget of page `name` (its content changed), keeping its place.
    func replace(_ name: String, with page: GObjectPointer) {
        guard let child = gtk_stack_get_child_by_name(stack.opaque, name) else { return }
        let visible = gtk_stack_get_visible_child_name(stack.opaque).map { String(cString: $0) } == name
        gtk_stack_remove(stack.opaque, child)
        gtk_stack_add_named(stack.opaque, page.as(), name)
        if visible { gtk_stack_set_visible_child_full(stack.opaque, name, GTK_STACK_TRANSITION_TYPE_NONE) } else { setAccessibleHidden(page, true) }
    }

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
        gtk_window_set_title(window.as(), shown)
    }

    private func update(title: String) {
        setTitle(title)
        gtk_widget_set_visible(backButton.as(), pageNames.count > 1 ? 1 : 0)
        showMessage(nil)
    }

    // MARK: - Chrome

    /// Replaces the header bar's page buttons; `handler` gets the pressed action's id.
    public func setPageActions(_ actions: [(id: String, label: String, icon: String?)], handler: @escaping (String) -> Void) {
        while let child = gtk_widget_get_first_child(pageActionsBox.as()) {
            gtk_box_remove(pageActionsBox.as(), child)
        }
        pageActionButtons = [:]
        for action in actions {
            let button: GObjectPointer
            if let icon = action.icon {
                button = GObjectPointer(gtk_button_new_from_icon_name(icon))!
                // Flat like the window's own header-bar icons; labelled buttons keep a frame.
                gtk_button_set_has_frame(button.as(), 0)
                gtk_widget_set_tooltip_text(button.as(), action.label)
                setAccessibleLabel(button, action.label)
            } else {
                button = GObjectPointer(gtk_button_new_with_label(action.label))!
            }
            let id = action.id
            Signals.connect(button, "clicked") { _ in handler(id) }
            gtk_box_append(pageActionsBox.as(), button.as())
            pageActionButtons[action.id] = button
        }
    }

    /// Shows or hides the activity spinner.
    public func setActivity(_ active: Bool) {
        gtk_widget_set_visible(spinner.as(), active ? 1 : 0)
        if active { gtk_spinner_start(spinner.opaque) } else { gtk_spinner_stop(spinner.opaque) }
    }

    /// Whether the activity spinner is shown (automation).
    var isActivityVisible: Bool { gtk_widget_get_visible(spinner.as()) != 0 }

    /// Shows a line in the status area (`nil` hides it).
    public func setStatus(_ text: String?) {
        gtk_label_set_text(statusLabel.opaque, text ?? "")
        gtk_widget_set_visible(statusLabel.as(), text == nil ? 0 : 1)
    }

    /// Shows an error or validation message above the page (`nil` hides it).
    public func showMessage(_ text: String?) {
        gtk_label_set_text(messageLabel.opaque, text ?? "")
        gtk_widget_set_visible(messageLabel.as(), text == nil ? 0 : 1)
    }

    /// Shows the search toggle for pages that can be searched.
    public func setSearchable(_ searchable: Bool) {
        gtk_widget_set_visible(searchButton.as(), searchable ? 1 : 0)
        if !searchable { setSearchActive(false) }
    }

    public var isSearchable: Bool { gtk_widget_get_visible(searchButton.as()) != 0 }

    /// Shows or hides the search bar (Ctrl+F, the search toggle).
    public func setSearchActive(_ active: Bool) {
        gtk_search_bar_set_search_mode(searchBar.opaque, active ? 1 : 0)
        if active { _ = gtk_widget_grab_focus(searchEntry.as()) }
    }

    public var isSearchActive: Bool { gtk_search_bar_get_search_mode(searchBar.opaque) != 0 }

    /// The text in the search entry (automation).
    var searchText: String { String(cString: gtk_editable_get_text(searchEntry.opaque)) }

    /// Replaces the search text as typing would: letters typed on are inserted at the end,
    /// letters erased are deleted from it, so the field changes once, as it does for a
    /// keystroke (`search-changed` follows); other text replaces the whole.
    public func setSearchText(_ text: String) {
        // GTK counts positions in characters (code points), as `unicodeScalars` does.
        let current = searchText.unicodeScalars, typed = text.unicodeScalars
        if !current.isEmpty && typed.starts(with: current) {
            var end = Int32(current.count)
            gtk_editable_insert_text(searchEntry.opaque, String(typed.dropFirst(current.count)), -1, &end)
        } else if !typed.isEmpty && current.starts(with: typed) {
            gtk_editable_delete_text(searchEntry.opaque, Int32(typed.count), -1)
        } else {
            gtk_editable_set_text(searchEntry.opaque, text)
        }
    }

    /// The type of the renderer drawing the window, such as `GskCairoRenderer` (automation;
    /// see ``RendererChoice``); empty before the window is realized.
    var rendererName: String {
        guard let renderer = gtk_native_get_renderer(window.opaque) else { return "" }
        // Safe: the window keeps its renderer alive, and a GskRenderer is a GObject, whose
        // memory starts with its GTypeInstance; g_type_name returns a string GLib owns.
        return String(cString: g_type_name_from_instance(gobj(renderer).as()))
    }

    /// The message shown above the page, if any (automation).
    var message: String? {
        gtk_widget_get_visible(messageLabel.as()) != 0 ? String(cString: gtk_label_get_text(messageLabel.opaque)) : nil
    }

    /// The status line, if shown (automation).
    var status: String? {
        gtk_widget_get_visible(statusLabel.as()) != 0 ? String(cString: gtk_label_get_text(statusLabel.opaque)) : nil
    }

    /// The window title, with the badge count if any (automation).
    var title: String { gtk_window_get_title(window.as()).map { String(cString: $0) } ?? "" }

    public func present() { gtk_window_present(window.as()) }

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
        gtk_widget_queue_draw(window.as())
    }

    /// Starts measuring the gaps between painted frames: ``frameGapsSoFar`` says the longest
    /// since, in µs, and how many frames were painted. For benchmarks: reached with
    /// `@_spi(Testing) import TrellisGtk`.
    @_spi(Testing)
    public func measureFrameGaps() {
        frameGaps = (nil, 0, 0)
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

extension ShellWindow {
    /// Names every button inside `widget` (GTK's own, such as the search bar's close button).
    static func nameButtons(in widget: UnsafeMutablePointer<GtkWidget>, _ name: String) {
        var child = gtk_widget_get_first_child(widget)
        while let current = child {
            if trellis_widget_is_button(current) != 0 {
                setAccessibleName(GObjectPointer(current), name)
            }
            nameButtons(in: current, name)
            child = gtk_widget_get_next_sibling(current)
        }
    }
}
