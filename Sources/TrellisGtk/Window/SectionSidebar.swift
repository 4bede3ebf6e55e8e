import CGtk
import TrellisCore

/// The window's sidebar: the app's top-level sections (``Shell/sections``) as the rows of a
/// `GtkListBox` styled `navigation-sidebar`, as GNOME's apps list their places, beside the
/// pages and separated from them by a line. The row of the current section is selected; a
/// click, or Enter on a focused row, calls ``onActivate`` with the row's index.
///
/// Named for screen readers: the list is "Sections", each row its section's title.
/// ``SidebarFolding`` hides it on a narrow window.
@MainActor
final class SectionSidebar {
    /// The sidebar and its separator: what is shown or hidden (the header bar's toggle is bound
    /// to its visibility).
    let container: GObjectPointer
    let list: GObjectPointer
    private(set) var rows: [GObjectPointer] = []
    private(set) var sections: [ShellSection] = []
    /// Called with the index of the row a person activated.
    var onActivate: ((Int) -> Void)?

    init() {
        list = GObjectPointer(gtk_list_box_new())!
        addStyleClass(list, "navigation-sidebar")
        gtk_list_box_set_selection_mode(list.opaque, GTK_SELECTION_SINGLE)
        setAccessibleLabel(list, tr("Sections"))
        let scroller = GObjectPointer(gtk_scrolled_window_new())!
        gtk_scrolled_window_set_policy(scroller.opaque, GTK_POLICY_NEVER, GTK_POLICY_AUTOMATIC)
        gtk_scrolled_window_set_propagate_natural_width(scroller.opaque, 1)
        gtk_scrolled_window_set_child(scroller.opaque, list.as())
        gtk_widget_set_size_request(scroller.as(), 180, -1)
        container = GObjectPointer(gtk_box_new(GTK_ORIENTATION_HORIZONTAL, 0))!
        gtk_box_append(container.as(), scroller.as())
        gtk_box_append(container.as(), gtk_separator_new(GTK_ORIENTATION_VERTICAL))
        Signals.connect(list, "row-activated", object: { [weak self] _, row in
            guard let self, let index = self.rows.firstIndex(of: row) else { return }
            self.onActivate?(index)
        })
    }

    /// Replaces the rows with `sections`, one per section: its icon (if any) and title.
    func show(_ sections: [ShellSection]) {
        for row in rows { gtk_list_box_remove(list.opaque, row.as()) }
        self.sections = sections
        rows = sections.map { section in
            let box = GObjectPointer(gtk_box_new(GTK_ORIENTATION_HORIZONTAL, 12))!
            if let icon = section.iconName {
                gtk_box_append(box.as(), gtk_image_new_from_icon_name(icon))
            }
            let label = GObjectPointer(gtk_label_new(section.title))!
            gtk_label_set_xalign(label.opaque, 0)
            gtk_label_set_ellipsize(label.opaque, PANGO_ELLIPSIZE_END)
            gtk_box_append(box.as(), label.as())
            let row = GObjectPointer(gtk_list_box_row_new())!
            gtk_list_box_row_set_child(row.as(), box.as())
            // A screen reader reads a row by its label property, not by the text of its children.
            setAccessibleLabel(row, section.title)
            // A screen reader opens the section through the row's AT-SPI action, as a click does.
            // The row owns the handler, so `row` is alive whenever it runs.
            RowActivationAction.offer(on: row) { [weak self] in
                guard let self, let index = self.rows.firstIndex(of: row) else { return }
                self.onActivate?(index)
            }
            gtk_list_box_append(list.opaque, row.as())
            return row
        }
    }

    /// Selects the row of section `index` (`nil`: none), without activating it.
    func select(_ index: Int?) {
        guard let index, rows.indices.contains(index) else { return gtk_list_box_unselect_all(list.opaque) }
        gtk_list_box_select_row(list.opaque, rows[index].as())
    }

    /// The index of the selected row, if any (automation).
    var selectedIndex: Int? {
        guard let row = gtk_list_box_get_selected_row(list.opaque) else { return nil }
        return rows.firstIndex(of: gobj(row))
    }

    /// Whether the sidebar is shown.
    var isShown: Bool {
        get { gtk_widget_get_visible(container.as()) != 0 }
        set { gtk_widget_set_visible(container.as(), newValue ? 1 : 0) }
    }
}
