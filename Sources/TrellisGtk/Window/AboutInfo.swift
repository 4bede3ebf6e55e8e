import CGtk
import TrellisCore

/// What the About dialog shows.
///
/// ```swift
/// frontend.installAbout(AboutInfo(name: "Trellis", version: "0.1.0", iconName: "io.github.trellis.Demo",
///                                 comments: tr("A plugin-based application shell"),
///                                 website: "https://github.com/trellis/trellis"))
/// ```
public struct AboutInfo: Sendable, Equatable {
    /// The program's name.
    public var name: String
    /// Its version.
    public var version: String
    /// An icon of the icon theme (usually the application id).
    public var iconName: String
    /// One sentence saying what it is (translated).
    public var comments: String
    /// Its web site.
    public var website: String?
    /// The names credited.
    public var developers: [String]

    /// What the About dialog shows.
    public init(name: String, version: String, iconName: String, comments: String, website: String? = nil,
                developers: [String] = []) {
        self.name = name
        self.version = version
        self.iconName = iconName
        self.comments = comments
        self.website = website
        self.developers = developers
    }

    /// Shows a modal `GtkAboutDialog` over `window`.
    @MainActor
    func present(over window: GObjectPointer) {
        let dialog = GObjectPointer(gtk_about_dialog_new())!
        gtk_about_dialog_set_program_name(dialog.opaque, name)
        gtk_about_dialog_set_version(dialog.opaque, version)
        gtk_about_dialog_set_logo_icon_name(dialog.opaque, iconName)
        gtk_about_dialog_set_comments(dialog.opaque, comments)
        if let website { gtk_about_dialog_set_website(dialog.opaque, website) }
        if !developers.isEmpty {
            let strings = developers.map { strdup($0) }
            defer { strings.forEach { free($0) } }
            var argv: [UnsafePointer<CChar>?] = strings.map { UnsafePointer($0) } + [nil]
            gtk_about_dialog_set_authors(dialog.opaque, &argv)
        }
        gtk_window_set_application(dialog.as(), gtk_window_get_application(window.as()))
        gtk_window_set_transient_for(dialog.as(), window.as())
        gtk_window_set_modal(dialog.as(), 1)
        gtk_window_set_destroy_with_parent(dialog.as(), 1)
        gtk_window_present(dialog.as())
    }
}
