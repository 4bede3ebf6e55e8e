import CGtk
import CTrellisGtk
import TrellisCore

/// Automation commands for the sections' sidebar (see `GtkFrontend+Automation.swift` for the
/// protocol):
///
/// | command | effect |
/// | --- | --- |
/// | `sidebar` | the sidebar's rows (title, path, selected, focused, accessible label, bounds in the window), whether it is shown, whether the window is folded, the toggle's state |
/// | `sidebar-toggle` | clicks the header bar's sidebar toggle |
extension GtkFrontend {
    func automateSidebar(_ command: String, _ reply: @escaping (JSONValue) -> Void) {
        switch command {
        case "sidebar-toggle":
            trellis_button_emit_clicked(window.sidebarButton.object.as())
            reply(["ok": true])
        default:
            window.afterNextFrame { [weak self] in reply(self?.sidebarSnapshot() ?? ["ok": false]) }
        }
    }

    private func sidebarSnapshot() -> JSONValue {
        let sidebar = window.sidebar
        let selected = sidebar.selectedIndex
        let focus = gtk_root_get_focus(window.window.object.as())
        let rows = zip(sidebar.sections, sidebar.rows).enumerated().map { index, pair -> JSONValue in
            let (section, row) = pair
            var item: JSONValue = ["title": .string(section.title), "path": .string(section.path),
                                   "selected": .bool(index == selected), "accessibleLabel": .bool(hasAccessibleLabel(row.object)),
                                   "focused": .bool(focus.map { gtk_widget_is_ancestor($0, row.widget) != 0 || $0 == row.widget } ?? false)]
            var bounds = graphene_rect_t()
            if gtk_widget_compute_bounds(row.widget, window.window.object.as(), &bounds) != 0 {
                item["bounds"] = ["x": .number(Double(bounds.origin.x)), "y": .number(Double(bounds.origin.y)),
                                  "width": .number(Double(bounds.size.width)), "height": .number(Double(bounds.size.height))]
            }
            return item
        }
        return ["ok": true, "rows": .array(rows), "shown": .bool(sidebar.isShown),
                "folded": window.sidebarFolding.isFolded.map { .bool($0) } ?? .null,
                "toggle": .bool(gtk_toggle_button_get_active(window.sidebarButton.object.as()) != 0),
                "listLabel": .bool(hasAccessibleLabel(sidebar.list.object))]
    }
}
