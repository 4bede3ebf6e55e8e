import CGtk
import Foundation

extension GtkFrontend {
    /// Lets the icon theme find the app's own icons in `folder` (a folder holding `hicolor/…`,
    /// as `data/icons` in the source tree): an app run from its build folder shows its icon in
    /// the About dialog and the window list as an installed one does.
    ///
    /// GTK starts reading the icon theme on a worker thread when the display opens, and a
    /// folder added after that makes it drop what it read: the next icon looked up reads the
    /// whole theme again on the main thread (59 M instructions, 8-10 ms here). A folder whose
    /// icons the first frame does not show can be added after it
    /// (``ShellWindow/afterFirstFrame(_:)``).
    public func addIconSearchPath(_ folder: URL) {
        guard FileManager.default.fileExists(atPath: folder.path), let display = gdk_display_get_default() else { return }
        gtk_icon_theme_add_search_path(gtk_icon_theme_get_for_display(display), folder.path)
    }

    /// Whether the icon theme has icon `name` (automation: `icon NAME`).
    static func hasIcon(_ name: String) -> Bool {
        guard let display = gdk_display_get_default() else { return false }
        return gtk_icon_theme_has_icon(gtk_icon_theme_get_for_display(display), name) != 0
    }
}
