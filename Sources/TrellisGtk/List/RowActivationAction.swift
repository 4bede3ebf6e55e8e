import CGtk

/// The action `row.activate` on a list row widget, which GTK 4.8's AT-SPI bridge offers as the
/// row's action: a screen reader (or any AT-SPI client) can open the row as a click does. GTK
/// offers no action of its own on a `GtkListView` row or a `GtkListBoxRow`.
@MainActor
enum RowActivationAction {
    /// Gives `row` the action `row.activate`, which calls `handler`. The row widget owns the
    /// action group, which owns the action and `handler`: the handler lives as long as the row.
    static func offer(on row: GObjectPointer, _ handler: @escaping @MainActor () -> Void) {
        let group = GObjectReference(taking: GObjectPointer(g_simple_action_group_new()!))
        let action = SimpleAction(taking: GObjectPointer(g_simple_action_new("activate", nil)!))
        action.connect("activate", variant: { _ in handler() })
        g_action_map_add_action(group.object.as(), action.object.as())
        gtk_widget_insert_action_group(row.as(), "row", group.object.as())
    }
}
