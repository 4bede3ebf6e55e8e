import CGtk
import TrellisCore

/// The standard actions every Trellis window has, the primary menu that lists them, and the
/// API an app uses to add its own.
///
/// | action | keys | effect |
/// | --- | --- | --- |
/// | `win.back` | Alt+Left, Escape | closes the search bar, else goes back |
/// | `win.search` | Ctrl+F | toggles the search bar on searchable pages |
/// | `win.undo` | Ctrl+Z | undoes the top page's last unsaved change (or the last notice's change: `Shell.undo()`), then triggers `edit:undo` |
/// | `win.redo` | Shift+Ctrl+Z | redoes it, then triggers `edit:redo` |
/// | `app.about` | | the About dialog (after ``installAbout(_:)``) |
/// | `app.quit` | Ctrl+Q | quits |
///
/// Undo and redo go to the page on top (``PageController/undo()``, which a page keeping
/// unsaved changes in a store context implements); undo with nothing to undo there takes back
/// the change of the last notice posted on that page ("Deleted · Undo", ``NoticeBoard``). Both are then announced on the bus
/// (`edit:undo`, `edit:redo`) for anything else keeping an undo stack.
extension GtkFrontend {
    /// The bus message `win.undo` triggers.
    public static let undoMessage = "edit:undo"
    /// The bus message `win.redo` triggers.
    public static let redoMessage = "edit:redo"

    /// Where an action lives: `win.` actions act on this window, `app.` on the application.
    public enum ActionScope: String, Sendable {
        /// `win.<name>`, on the window.
        case window = "win"
        /// `app.<name>`, on the application.
        case application = "app"
    }

    /// Adds the undo and redo actions and lists every standard action in the primary menu.
    func installStandardActions() {
        Actions.add("undo", to: window.window.object, scope: "win", application: application.pointer,
                    accelerators: ["<Control>z"]) { [weak self] in
            guard let shell = self?.shell else { return }
            shell.undo()
            shell.bus.trigger(Self.undoMessage)
        }
        Actions.add("redo", to: window.window.object, scope: "win", application: application.pointer,
                    accelerators: ["<Control><Shift>z"]) { [weak self] in
            guard let shell = self?.shell else { return }
            shell.navigator.top?.redo()
            shell.bus.trigger(Self.redoMessage)
        }
        let menu = window.menu
        menu.add(tr("Back"), action: "win.back", section: .navigation)
        menu.add(tr("Search"), action: "win.search", section: .navigation)
        menu.add(tr("Undo"), action: "win.undo", section: .edit)
        menu.add(tr("Redo"), action: "win.redo", section: .edit)
        menu.add(tr("Quit"), action: "app.quit", section: .application)
    }

    /// Adds an app's own action, with its keys, as an item of the primary menu.
    ///
    /// ```swift
    /// frontend.addMenuAction("new-note", label: tr("New note"), accelerators: ["<Control>n"]) {
    ///     try? shell.navigate(to: "/notes/new")
    /// }
    /// ```
    public func addMenuAction(_ name: String, label: String, scope: ActionScope = .window,
                              section: PrimaryMenu.Section = .document, at position: Int? = nil, accelerators: [String] = [],
                              _ handler: @escaping @MainActor () -> Void) {
        let map = scope == .window ? window.window.object : application.pointer
        Actions.add(name, to: map, scope: scope.rawValue, application: application.pointer,
                    accelerators: accelerators, handler)
        window.menu.add(label, action: "\(scope.rawValue).\(name)", section: section, at: position)
    }

    /// Adds `app.about` and its menu item (just above Quit, as GNOME's apps order them),
    /// showing `about` in a `GtkAboutDialog`.
    public func installAbout(_ about: AboutInfo) {
        Actions.add("about", to: application.pointer, scope: "app", application: application.pointer) { [weak self] in
            guard let self else { return }
            about.present(over: self.window.window.object)
        }
        window.menu.add(tr("About %@", about.name), action: "app.about", section: .application,
                        at: max(0, window.menu.items(in: .application).count - 1))
    }
}
