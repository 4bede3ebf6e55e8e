import CGtk
import Foundation

/// Named actions with keyboard accelerators, shown in menus and reachable from the keyboard
/// (`win.back` with Alt+Left, `app.quit` with Ctrl+Q, …).
@MainActor
enum Actions {
    /// Adds action `name` to `map` (a `GtkApplicationWindow` for `win.`, the `GtkApplication`
    /// for `app.`) and binds `accelerators` (GTK syntax: `"<Control>f"`, `"<Alt>Left"`).
    static func add(_ name: String, to map: GObjectPointer, scope: String, application: GObjectPointer,
                           accelerators: [String] = [], _ handler: @escaping @MainActor () -> Void) {
        let action = SimpleAction(taking: GObjectPointer(g_simple_action_new(name, nil)!))
        action.connect("activate", variant: { _ in handler() })
        g_action_map_add_action(map.as(), action.object.as())
        guard !accelerators.isEmpty else { return }
        let strings = accelerators.map { strdup($0) }
        defer { strings.forEach { free($0) } }
        var argv: [UnsafePointer<CChar>?] = strings.map { UnsafePointer($0) } + [nil]
        gtk_application_set_accels_for_action(application.as(), "\(scope).\(name)", &argv)
    }

    /// Adds action `name`, taking a string parameter (a menu item's target), to `map`.
    static func add(_ name: String, to map: GObjectPointer, scope: String, application: GObjectPointer,
                    stringParameter handler: @escaping @MainActor (String) -> Void) {
        let stringType = g_variant_type_new("s")
        defer { g_variant_type_free(stringType) }
        let action = SimpleAction(taking: GObjectPointer(g_simple_action_new(name, stringType)!))
        action.connect("activate", variant: { parameter in
            guard let parameter else { return }
            handler(String(cString: g_variant_get_string(parameter, nil)))
        })
        g_action_map_add_action(map.as(), action.object.as())
    }

    /// Activates action `detailedName` (`"win.back"`) on `widget`'s action groups, as a key
    /// press or menu item does. Returns `false` when no such action is reachable (automation).
    @discardableResult
    static func activate(_ detailedName: String, on widget: GObjectPointer) -> Bool {
        gtk_widget_activate_action_variant(widget.as(), detailedName, nil) != 0
    }

    /// The accelerators bound to `detailedName` (automation).
    static func accelerators(for detailedName: String, application: GObjectPointer) -> [String] {
        strings(takingStrv: gtk_application_get_accels_for_action(application.as(), detailedName))
    }
}
