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
        /// The page's own buttons, when a narrow window folds them out of the header bar.
        case page
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
    let button: MenuButton
    private let model = Menu()
    private let sections = Section.allCases.map { _ in Menu() }

    init() {
        for section in sections {
            g_menu_append_section(model.object.opaque, nil, section.object.as())
        }
        button = MenuButton(gtk_menu_button_new())
        gtk_menu_button_set_icon_name(button.object.opaque, "open-menu-symbolic")
        // The popover and a button per item are built when the menu first opens (a click, F10),
        // not before the window's first frame: with many plugin commands that is tens of
        // widgets nobody sees yet. Items added later join the model, which the popover follows.
        gtk_menu_button_set_create_popup_func(button.object.opaque, { button, model in
            guard let button, gtk_menu_button_get_popover(button) == nil else { return }
            gtk_menu_button_set_menu_model(button, model?.assumingMemoryBound(to: GMenuModel.self))
        }, g_object_ref(model.object), { g_object_unref($0) })
        gtk_menu_button_set_primary(button.object.opaque, 1)
        // Flat, like the other header-bar buttons (see ShellWindow).
        gtk_menu_button_set_has_frame(button.object.opaque, 0)
        button.setAccessibleName(tr("Main menu"))
    }

    /// Adds an item showing `label` that activates `action` (`"win.back"`, `"app.quit"`) to
    /// `section`, at its end or at `position`.
    public func add(_ label: String, action: String, section: Section, at position: Int? = nil) {
        let menu = sections[section.rawValue]
        if let position {
            g_menu_insert(menu.object.opaque, Int32(position), label, action)
        } else {
            g_menu_append(menu.object.opaque, label, action)
        }
    }

    /// Removes every item of `section`.
    func removeAll(in section: Section) {
        g_menu_remove_all(sections[section.rawValue].object.opaque)
    }

    /// Every item, top to bottom.
    var items: [Item] {
        Section.allCases.flatMap(items(in:))
    }

    /// The items of `section`, top to bottom.
    func items(in section: Section) -> [Item] {
        let menu = sections[section.rawValue]
        return (0..<g_menu_model_get_n_items(menu.object.as())).compactMap { index in
            guard let label = Self.attribute(G_MENU_ATTRIBUTE_LABEL, of: menu, at: index),
                  let action = Self.attribute(G_MENU_ATTRIBUTE_ACTION, of: menu, at: index) else { return nil }
            return Item(label: label, action: action)
        }
    }

    private static func attribute(_ name: String, of menu: Menu, at index: Int32) -> String? {
        guard let value = g_menu_model_get_item_attribute_value(menu.object.as(), index, name, nil) else { return nil }
        defer { g_variant_unref(value) }
        return String(cString: g_variant_get_string(value, nil))
    }
}
