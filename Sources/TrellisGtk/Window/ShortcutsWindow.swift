import CGtk
import TrellisCore

/// The window's keyboard shortcuts, in GTK's own shortcuts window (`GtkShortcutsWindow`, as
/// GNOME's apps show theirs with Ctrl+?): every action of the primary menu that has keys,
/// in the menu's groups, then the keys of lists and of the window itself. Built each time it
/// opens, so commands added since (a plugin's) are there. GTK 4.8 builds this window from a
/// description only (`GtkBuilder`): the description is written here from the menu.
@MainActor
enum ShortcutsWindow {
    /// One group of shortcuts: its title and its (title, accelerators) entries.
    struct Group {
        let title: String
        let shortcuts: [(title: String, accelerators: [String])]
    }

    /// The keys every Trellis window has beyond its actions.
    static var standardGroups: [Group] {
        [Group(title: tr("Lists"), shortcuts: [
            (tr("Move between rows"), ["Up", "Down"]),
            (tr("First or last row"), ["Home", "End"]),
            (tr("Open the row"), ["Return"]),
            (tr("Tick or untick the row"), ["space"]),
            (tr("Leave the list"), ["Tab", "<Shift>Tab"]),
         ]),
         Group(title: tr("Window"), shortcuts: [
            (tr("Show or hide the sections"), ["F9"]),
            (tr("Main menu"), ["F10"]),
            (tr("Keyboard shortcuts"), ["<Control>question", "F1"]),
         ])]
    }

    /// Shows the shortcuts of `groups` over `window`.
    static func present(_ groups: [Group], over window: ApplicationWindow) {
        let builder = gtk_builder_new_from_string(description(of: groups), -1)!
        defer { g_object_unref(UnsafeMutableRawPointer(builder)) }
        // Transfer none: the builder holds the window until the window is shown (GTK's list of
        // toplevels owns a window), then the window lives until it is closed.
        guard let shortcuts = gtk_builder_get_object(builder, "shortcuts") else { return }
        let shown = UnsafeMutableRawPointer(shortcuts).assumingMemoryBound(to: GtkWindow.self)
        gtk_window_set_title(shown, tr("Keyboard Shortcuts"))
        nameGtkParts(in: UnsafeMutableRawPointer(shortcuts).assumingMemoryBound(to: GtkWidget.self))
        gtk_window_set_transient_for(shown, window.object.as())
        gtk_window_set_application(shown, gtk_window_get_application(window.object.as()))
        gtk_window_present(shown)
    }

    /// The `GtkBuilder` description of the shortcuts window for `groups`.
    static func description(of groups: [Group]) -> String {
        var xml = #"<interface><object class="GtkShortcutsWindow" id="shortcuts"><property name="modal">1</property>"#
        xml += #"<child><object class="GtkShortcutsSection"><property name="section-name">shortcuts</property>"#
        xml += #"<property name="max-height">12</property>"#
        for group in groups where !group.shortcuts.isEmpty {
            xml += #"<child><object class="GtkShortcutsGroup"><property name="title">\#(escaped(group.title))</property>"#
            for shortcut in group.shortcuts {
                xml += #"<child><object class="GtkShortcutsShortcut"><property name="title">\#(escaped(shortcut.title))</property>"#
                xml += #"<property name="accelerator">\#(escaped(shortcut.accelerators.joined(separator: " ")))</property>"#
                xml += "</object></child>"
            }
            xml += "</object></child>"
        }
        return xml + "</object></child></object></interface>"
    }

    /// `text` escaped for XML.
    private static func escaped(_ text: String) -> String {
        let escaped = g_markup_escape_text(text, -1)!
        defer { g_free(escaped) }
        return String(cString: escaped)
    }
}
