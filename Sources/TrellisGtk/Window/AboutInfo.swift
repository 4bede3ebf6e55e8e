import CGtk
import TrellisCore

/// What the About dialog shows: the program, its version and web site, the license it is
/// distributed under, who wrote it and what it is built on.
///
/// ```swift
/// frontend.installAbout(AboutInfo(name: "Trellis", version: "0.1.0", iconName: "io.github.trellis.Demo",
///                                 comments: tr("A plugin-based application shell"),
///                                 website: "https://github.com/trellis/trellis",
///                                 license: .mit, developers: ["The Trellis authors"],
///                                 credits: [AboutInfo.Credits(title: tr("Built on"), names: ["GTK", "GRDB.swift"])]))
/// ```
public struct AboutInfo: Sendable, Equatable {
    /// A license the dialog names, with a link to its text (GTK's well-known ones), or any
    /// other by its full text.
    public enum License: Sendable, Equatable {
        case mit, apache2, bsd3, gpl3OrLater, lgpl3OrLater, lgpl21OrLater, mpl2
        /// Another license: its text, shown in the dialog.
        case custom(String)
    }

    /// A section of the dialog's Credits: a heading and the names under it.
    public struct Credits: Sendable, Equatable {
        public var title: String
        public var names: [String]
        public init(title: String, names: [String]) {
            self.title = title
            self.names = names
        }
    }

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
    /// The license the program is distributed under; `nil` names none.
    public var license: License?
    /// The names credited as its authors.
    public var developers: [String]
    /// Further credits, each under its heading ("Built on", "Designs from").
    public var credits: [Credits]

    /// What the About dialog shows.
    public init(name: String, version: String, iconName: String, comments: String, website: String? = nil,
                license: License? = nil, developers: [String] = [], credits: [Credits] = []) {
        self.name = name
        self.version = version
        self.iconName = iconName
        self.comments = comments
        self.website = website
        self.license = license
        self.developers = developers
        self.credits = credits
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
        switch license {
        case .custom(let text):
            gtk_about_dialog_set_license(dialog.opaque, text)
            gtk_about_dialog_set_wrap_license(dialog.opaque, 1)
        case let license?:
            gtk_about_dialog_set_license_type(dialog.opaque, Self.gtkLicense(license))
        case nil:
            break
        }
        if !developers.isEmpty {
            Self.withCStrings(developers) { gtk_about_dialog_set_authors(dialog.opaque, $0) }
        }
        for section in credits where !section.names.isEmpty {
            Self.withCStrings(section.names) { gtk_about_dialog_add_credit_section(dialog.opaque, section.title, $0) }
        }
        nameGtkParts(in: dialog.as())
        // GTK builds the credits' labels when their page is first shown: name those then too.
        // The handlers belong to the dialog's own widgets, so `dialog` lives whenever they run.
        Signals.connect(dialog, "map") { nameGtkParts(in: dialog.as()) }
        if let stack = Self.firstStack(in: dialog.as()) {
            Signals.connectNotify(GObjectPointer(stack), "visible-child") { nameGtkParts(in: dialog.as()) }
        }
        gtk_window_set_application(dialog.as(), gtk_window_get_application(window.as()))
        gtk_window_set_transient_for(dialog.as(), window.as())
        gtk_window_set_modal(dialog.as(), 1)
        gtk_window_set_destroy_with_parent(dialog.as(), 1)
        gtk_window_present(dialog.as())
    }

    /// The first GtkStack inside `widget` (the About dialog's pages).
    private static func firstStack(in widget: UnsafeMutablePointer<GtkWidget>) -> UnsafeMutablePointer<GtkWidget>? {
        var child = gtk_widget_get_first_child(widget)
        while let current = child {
            // Safe: every widget starts with its GTypeInstance.
            if g_type_check_instance_is_a(UnsafeMutableRawPointer(current).assumingMemoryBound(to: GTypeInstance.self),
                                          gtk_stack_get_type()) != 0 { return current }
            if let found = firstStack(in: current) { return found }
            child = gtk_widget_get_next_sibling(current)
        }
        return nil
    }

    /// GTK's value for a well-known license.
    private static func gtkLicense(_ license: License) -> GtkLicense {
        switch license {
        case .mit: GTK_LICENSE_MIT_X11
        case .apache2: GTK_LICENSE_APACHE_2_0
        case .bsd3: GTK_LICENSE_BSD_3
        case .gpl3OrLater: GTK_LICENSE_GPL_3_0
        case .lgpl3OrLater: GTK_LICENSE_LGPL_3_0
        case .lgpl21OrLater: GTK_LICENSE_LGPL_2_1
        case .mpl2: GTK_LICENSE_MPL_2_0
        case .custom: GTK_LICENSE_CUSTOM
        }
    }

    /// Calls `body` with `strings` as a NULL-terminated array of C strings, valid during the
    /// call (GTK copies what it keeps).
    private static func withCStrings(_ strings: [String], _ body: (UnsafeMutablePointer<UnsafePointer<CChar>?>) -> Void) {
        let copies = strings.map { strdup($0) }
        defer { copies.forEach { free($0) } }
        var argv: [UnsafePointer<CChar>?] = copies.map { UnsafePointer($0) } + [nil]
        argv.withUnsafeMutableBufferPointer { body($0.baseAddress!) }
    }
}
