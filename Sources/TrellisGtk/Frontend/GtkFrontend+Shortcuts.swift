import CGtk
import TrellisCore

/// `win.shortcuts` (Ctrl+?, F1): the shortcuts window (``ShortcutsWindow``), listing every
/// action of the primary menu that has keys, grouped as the menu is, then the keys of lists
/// and of the window.
extension GtkFrontend {
    /// Adds `win.shortcuts` and its menu item (above About and Quit).
    func installShortcutsWindow() {
        addMenuAction("shortcuts", label: tr("Keyboard Shortcuts"), section: .application, at: 0,
                      accelerators: ["<Control>question", "F1"]) { [weak self] in self?.showShortcuts() }
    }

    /// The groups the shortcuts window shows now.
    var shortcutGroups: [ShortcutsWindow.Group] {
        let titles: [PrimaryMenu.Section: String] = [.navigation: tr("Moving around"), .document: tr("Commands"),
                                                     .plugins: tr("Plugins"), .edit: tr("Editing"), .application: tr("Application")]
        let groups = PrimaryMenu.Section.allCases.map { section in
            ShortcutsWindow.Group(title: titles[section] ?? "", shortcuts: window.menu.items(in: section).compactMap { item in
                let accelerators = Actions.accelerators(for: item.action, application: application.pointer)
                return accelerators.isEmpty ? nil : (item.label, accelerators)
            })
        }
        return groups + ShortcutsWindow.standardGroups
    }

    /// Shows the shortcuts window over the window.
    func showShortcuts() {
        ShortcutsWindow.present(shortcutGroups, over: window.window)
    }
}
