import CGtk

/// Folds the sidebar away on a narrow window and brings it back on a wide one, as GNOME's
/// adaptive apps do (GTK 4.8 has no breakpoints: this watches the width of the window's
/// surface, which follows every resize, maximizing included).
///
/// Only a crossing of ``threshold`` shows or hides the sidebar, so what a person chose with
/// the toggle (or F9) stays until the window crosses it again. While folded, a sidebar the
/// person opened closes again once a section is chosen.
@MainActor
final class SidebarFolding {
    /// Below this width, in pixels, the sidebar folds away.
    static let threshold: Int32 = 700

    private let sidebar: SectionSidebar
    /// Whether the window is narrower than ``threshold`` (`nil` before its first size is known).
    private(set) var isFolded: Bool?
    /// Called with the window's width whenever it changes (the header bar folds too).
    var onWidthChanged: ((Int32) -> Void)?

    init(sidebar: SectionSidebar, window: ApplicationWindow) {
        self.sidebar = sidebar
        window.connect("realize") { [weak self, weak window] in
            // Safe: a realized GtkWindow (a GtkNative) has its surface until it is unrealized,
            // and the handler below lives no longer than that surface.
            guard let window, let surface = gtk_native_get_surface(window.object.opaque) else { return }
            Signals.connectNotify(gobj(surface), "width") { [weak self] in
                self?.widthChanged(gdk_surface_get_width(surface))
            }
            self?.widthChanged(gdk_surface_get_width(surface))
        }
    }

    /// After a section was chosen: a sidebar opened over a narrow window makes room for the page.
    func sectionChosen() {
        if isFolded == true { sidebar.isShown = false }
    }

    private func widthChanged(_ width: Int32) {
        guard width > 0 else { return }
        onWidthChanged?(width)
        let folded = width < Self.threshold
        guard folded != isFolded else { return }
        isFolded = folded
        sidebar.isShown = !folded && !sidebar.sections.isEmpty
    }

    /// The sidebar's place after its sections changed: shown on a wide window when it has any.
    func sectionsChanged() {
        sidebar.isShown = isFolded != true && !sidebar.sections.isEmpty
    }
}
