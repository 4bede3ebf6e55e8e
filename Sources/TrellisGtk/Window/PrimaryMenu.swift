import CGtk
import TrellisCore

/// The window's primary menu: a `GtkMenuButton` ("open-menu-symbolic", F10) whose popover is
/// built, when it first opens, from a `GMenu` model in sections, so every action of the window
/// is reachable from the menu as well as from the keyboard (GNOME HIG). Menu items show their
/// accelerators.
///
/// ```swift
/// window.menu.add(tr("New note"), action: "win.new-note", section: .document)
/// ```
@MainActor
public final class PrimaryMenu {
    /// The menu's sections, top to bottom, separated by lines.
    public enum Section: Int, CaseIterable, Sendable {
        /// Moving around: Back, Search.
        case navigation
        /// The app's own commands (New note, …).
        case document
        /// Items contributed from outside the app: the plugins' commands and pages (see
        /// `GtkFrontend.addContributedMenuItems(logger:)`).
        case plugins
        /// Undo, Redo.
        case edit
        /// About, Quit.
        case application
    }

    /// One menu entry, read back from the model (automation).
    struct Item: Equatable, Sendable {
        /// The text shown.
        let label: String
        /// The detailed action name (`win.back`).
        let action: String
    }

    /// The `GtkMenuButton` packed in the header bar.
    let button: GObjectPointer
    private let model: GObjectPointer
    private let sections: [GObjectPointer]

    init() {
        model = GObjectPointer(g_menu_new())!
        sections = Section.allCases.map { _ in GObjectPointer(g_menu_new())! }
        for section in sections {
            g_menu_append_section(model.opaque, nil, section.as())
        }
        button = GObjectPointer(gtk_menu_button_new())!
        gtk_menu_button_set_icon_name(button.opaque, "open-menu-symbolic")
        // The popover and a button per item are built when the menu first opens (a click, F10),
        // not before the window's first frame: with many plugin commands that is tens of
        // widgets nobody sees yet. Items added later join the model, which the popover follows.
        gtk_menu_button_set_create_popup_func(button.opaque, { button, model in
            guard let button, gtk_menu_button_get_popover(button) == nil else { return }
            gtk_menu_button_set_menu_model(button, model?.assumingMemoryBound(to: GMenuModel.self))
        }, g_object_ref(model), { g_object_unref($0) })
        gtk_menu_button_set_primary(button.opaque, 1)
        // Flat, like the other header-bar buttons (see ShellWindow).
        gtk_menu_button_set_has_frame(button.opaque, 0)
        setAccessibleName(button, tr("Main menu"))
    }

    isolated deinit {
        sections.forEach { g_object_unref($0) }
        g_object_unref(model)
    }

    /// Adds an item showing `label` that activates `action` (`"win.back"`, `"app.quit"`) to
    /// `section`, at its end or at `position`.
    public func add(_ label: String, action: String, section: Section, at position: Int? = nil) {
        let menu = sections[section.rawValue]
        if let position {
            g_menu_insert(menu.opaque, Int32(position), label, action)
        } else {
            g_menu_append(menu.opaque, label, action)
        }
    }

    /// Every item, top to bottom (automation).
    var items: [Item] {
        sections.flatMap { section -> [Item] in
            (0..<g_menu_model_get_n_items(section.as())).compactMap { index in
                guard let label = Self.attribute(G_MENU_ATTRIBUTE_LABEL, of: section, at: index),
                      let action = Self.attribute(G_MENU_ATTRIBUTE_ACTION, of: section, at: index) else { return nil }
                return Item(label: label, action: action)
            }
        }
    }

    private static func attribute(_ name: String, of menu: GObjectPointer, at index: Int32) -> String? {
        guard let value = g_menu_model_get_item_attribute_value(menu.as(), index, name, nil) else { return nil }
        defer { g_variant_unref(value) }
        return String(cString: g_variant_get_string(value, nil))
    }
}
