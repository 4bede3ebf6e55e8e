import CGtk
import TrellisCore

/// Automation commands for the desktop integration (see `GtkFrontend+Automation.swift` for the
/// protocol):
///
/// | command | effect |
/// | --- | --- |
/// | `go PATH` | navigates from inside the app (any route, public or not) |
/// | `menu` | the primary menu's items: label, action, accelerators, enabled |
/// | `menu-open` | opens the primary menu as F10 does; after the next frame, whether its popover is shown (`open`) |
/// | `chrome` | the header bar's icon-only widgets: tooltip and whether an accessible label is set |
/// | `resize W H` | sets the window's default size (as a person resizing it) |
/// | `min-width` | the narrowest the window can be now (`minimum`), and its natural width |
/// | `icon NAME` | whether the icon theme has icon NAME (`found`), once the first frame is painted |
/// | `sidebar`, `sidebar-toggle` | the sections' sidebar (`GtkFrontend+SidebarAutomation.swift`) |
/// | `row-bounds N` | where row N and its checkbox are in the window (`row`, `checkbox`: x, y, width, height), for real clicks |
extension GtkFrontend {
    func automateDesktop(_ command: String, _ argument: String, _ reply: @escaping (JSONValue) -> Void) {
        func fail(_ message: String) { reply(["ok": false, "error": .string(message)]) }
        switch command {
        case "go":
            do { try shell.navigate(to: argument); reply(["ok": true]) } catch { fail(error.description) }
        case "menu":
            let items = window.menu.items.map { item -> JSONValue in
                let accels = Actions.accelerators(for: item.action, application: application.pointer)
                let name = item.action.split(separator: ".").last.map(String.init) ?? item.action
                let group = item.action.hasPrefix("app.") ? application.pointer : window.window.object
                let enabled = g_action_group_get_action_enabled(group.as(), name) != 0
                return ["label": .string(item.label), "action": .string(item.action), "accels": .array(accels.map { .string($0) }),
                        "enabled": .bool(enabled)]
            }
            reply(["ok": true, "items": .array(items)])
        case "menu-open":
            let button = window.menu.button
            gtk_menu_button_popup(button.object.opaque)
            window.afterNextFrame {
                let popover = gtk_menu_button_get_popover(button.object.opaque)
                reply(["ok": true, "open": .bool(popover.map { gtk_widget_get_visible(gobj($0).as()) != 0 } ?? false)])
            }
        case "row-bounds":
            guard let position = Int(argument) else { return fail("row-bounds needs a row number, not '\(argument)'") }
            guard let bounds = (currentView?.list as? VirtualListView)?.bounds(position: position, in: window.window) else {
                return fail("row \(position) has no widget on screen")
            }
            func rect(_ r: graphene_rect_t) -> JSONValue {
                ["x": .number(Double(r.origin.x)), "y": .number(Double(r.origin.y)),
                 "width": .number(Double(r.size.width)), "height": .number(Double(r.size.height))]
            }
            reply(["ok": true, "row": rect(bounds.row), "checkbox": rect(bounds.checkbox)])
        case "text-regions":
            window.afterNextFrame { [weak self] in reply(self?.textRegions() ?? ["ok": false]) }
        case "min-width":
            // The narrowest the window can be now (its content and header bar, measured by GTK).
            var minimum: Int32 = 0, natural: Int32 = 0
            gtk_widget_measure(window.window.widget, GTK_ORIENTATION_HORIZONTAL, -1, &minimum, &natural, nil, nil)
            reply(["ok": true, "minimum": .number(Double(minimum)), "natural": .number(Double(natural))])
        case "icon":
            // After the first frame, as a person opening About would ask: an app may add its
            // icon folder only then (see `addIconSearchPath`).
            window.afterFirstFrame { reply(["ok": true, "found": .bool(Self.hasIcon(argument))]) }
        case "chrome":
            let widgets: [(String, Widget)] = [("sidebar", window.sidebarButton), ("back", window.backButton), ("search", window.searchButton),
                                                       ("menu", window.menu.button), ("spinner", window.spinner)]
            reply(["ok": true, "widgets": .object(Dictionary(uniqueKeysWithValues: widgets.map { name, widget in
                let tooltip = gtk_widget_get_tooltip_text(widget.widget).map { String(cString: $0) }
                return (name, ["tooltip": tooltip.map { .string($0) } ?? .null, "accessibleLabel": .bool(hasAccessibleLabel(widget.object))])
            }))])
        case "sidebar", "sidebar-toggle":
            automateSidebar(command, reply)
        case "resize":
            let numbers = argument.split(separator: " ").compactMap { Int32($0) }
            guard numbers.count == 2, numbers.allSatisfy({ $0 > 0 }) else { return fail("resize needs a width and a height, not '\(argument)'") }
            gtk_window_set_default_size(window.window.object.as(), numbers[0], numbers[1])
            reply(["ok": true])
        default:
            fail("unknown command '\(command)'")
        }
    }

    /// The desktop-integration part of `dump`.
    func desktopSnapshot(into result: inout JSONValue) {
        result["badge"] = .number(Double(window.badge))
        result["width"] = .number(Double(gtk_widget_get_width(window.window.object.as())))
        result["height"] = .number(Double(gtk_widget_get_height(window.window.object.as())))
        result["dialogs"] = .array(dialogTitles().map { .string($0) })
        if let settings = gtk_settings_get_default() {
            result["darkTheme"] = .bool(GtkSettingsProperty.bool(gobj(settings), "gtk-application-prefer-dark-theme"))
        }
    }

    /// The titles of the application's other visible windows (About, …).
    private func dialogTitles() -> [String] {
        guard let windows = gtk_application_get_windows(application.pointer.as()) else { return [] }
        var titles: [String] = []
        var node: UnsafeMutablePointer<GList>? = windows
        while let current = node {
            if let other = current.pointee.data, other != window.window.object, gtk_widget_get_visible(other.as()) != 0 {
                titles.append(gtk_window_get_title(other.as()).map { String(cString: $0) } ?? "")
            }
            node = current.pointee.next
        }
        return titles
    }
}
