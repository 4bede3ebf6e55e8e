import CGtk
import CTrellisGtk
import TrellisCore

/// The window's sidebar: the app's top-level sections (``Shell/sections``) as the rows of a
/// `GtkListBox` styled `navigation-sidebar`, as GNOME's apps list their places, beside the
/// pages and separated from them by a line. The row of the current section is highlighted
/// (and, for screen readers, selected) whatever the keyboard focus does: arrows move the focus
/// between rows without changing the highlight, which always names the page on screen; a
/// click, or Enter on a focused row, calls ``onActivate`` with the row's index.
///
/// Named for screen readers: the list is "Sections", each row its section's title, described
/// by its summary.
/// ``SidebarFolding`` hides it on a narrow window.
@MainActor
final class SectionSidebar {
    /// The sidebar and its separator: what is shown or hidden (the header bar's toggle is bound
    /// to its visibility).
    let container: Box
    let list: ListBox
    private(set) var rows: [ListBoxRow] = []
    private(set) var sections: [ShellSection] = []
    /// Called with the index of the row a person activated.
    var onActivate: ((Int) -> Void)?

    init() {
        list = ListBox(gtk_list_box_new())
        list.addStyleClass("navigation-sidebar")
        // No GTK selection: it would follow the arrow keys away from the page on screen.
        gtk_list_box_set_selection_mode(list.object.opaque, GTK_SELECTION_NONE)
        list.setAccessibleLabel(tr("Sections"))
        // One stop of the Tab order, as every list: arrows move between the sections.
        ListKeys.makeOneTabStop(list)
        let scroller = makeScrolledWindow()
        gtk_scrolled_window_set_policy(scroller.object.opaque, GTK_POLICY_NEVER, GTK_POLICY_AUTOMATIC)
        gtk_scrolled_window_set_propagate_natural_width(scroller.object.opaque, 1)
        gtk_scrolled_window_set_child(scroller.object.opaque, list.widget)
        scroller.setMinimumSize(width: 180, height: -1)
        container = Box(gtk_box_new(GTK_ORIENTATION_HORIZONTAL, 0))
        gtk_box_append(container.object.as(), scroller.widget)
        gtk_box_append(container.object.as(), gtk_separator_new(GTK_ORIENTATION_VERTICAL))
        list.connect("row-activated", object: gtk_list_box_row_get_type()) { [weak self] row in
            guard let self, let index = self.rows.firstIndex(where: { $0.object == row }) else { return }
            self.onActivate?(index)
        }
    }

    /// Replaces the rows with `sections`, one per section: its icon (if any) and title, and its
    /// summary (if any) as the row's tooltip.
    func show(_ sections: [ShellSection]) {
        for row in rows { gtk_list_box_remove(list.object.opaque, row.widget) }
        self.sections = sections
        rows = sections.map { section in
            let box = Box(gtk_box_new(GTK_ORIENTATION_HORIZONTAL, 12))
            if let icon = section.iconName {
                let image = Widget(gtk_image_new_from_icon_name(icon))
                image.setAccessibleHidden(true)  // the row is read by its title
                gtk_box_append(box.object.as(), image.widget)
            }
            let label = Label(gtk_label_new(section.title))
            gtk_label_set_xalign(label.object.opaque, 0)
            gtk_label_set_ellipsize(label.object.opaque, PANGO_ELLIPSIZE_END)
            gtk_box_append(box.object.as(), label.widget)
            let row = ListBoxRow(gtk_list_box_row_new())
            gtk_list_box_row_set_child(row.object.as(), box.widget)
            // A screen reader reads a row by its label property, not by the text of its children;
            // then its description: the section's summary, which the pointer shows as a tooltip.
            row.setAccessibleLabel(section.title)
            if let summary = section.summary {
                row.setTooltip(summary)
                row.setAccessibleDescription(summary)
            }
            // A screen reader opens the section through the row's AT-SPI action, as a click does
            // (the list box's `row-activated`).
            trellis_row_offer_activation(row.widget)  // trellis-row-activation.h
            gtk_list_box_append(list.object.opaque, row.widget)
            return row
        }
    }

    /// Highlights the row of section `index` (`nil`: none), without activating it.
    func select(_ index: Int?) {
        let index = index.flatMap { rows.indices.contains($0) ? $0 : nil }
        // Unchanged: nothing to tell (each change is a message on the accessibility bus).
        guard index != selectedIndex || index.map({ gtk_widget_has_css_class(rows[$0].widget, "trellis-current") == 0 }) == true else { return }
        selectedIndex = index
        for (position, row) in rows.enumerated() {
            if position == selectedIndex {
                row.addStyleClass("trellis-current")
                trellis_accessible_set_selected(row.object.opaque, 1)
            } else {
                gtk_widget_remove_css_class(row.widget, "trellis-current")
                gtk_accessible_reset_state(row.object.opaque, GTK_ACCESSIBLE_STATE_SELECTED)
            }
            // GTK 4.8 does not always redraw a row whose highlight class changes: a row
            // highlighted at the start and left a frame later stayed drawn highlighted
            // (SidebarWindowTests, "only the current section's row is drawn highlighted").
            gtk_widget_queue_draw(row.widget)
        }
    }

    /// The index of the highlighted row, if any.
    private(set) var selectedIndex: Int?

    /// Whether the keyboard focus is on one of the rows.
    var hasFocus: Bool { list.focusIsInside }

    /// Whether the keyboard focus is on the highlighted row.
    var currentRowHasFocus: Bool { selectedIndex.map { rows[$0].isFocus } ?? false }

    /// Gives the keyboard focus to the highlighted row (the first when none is).
    func focusCurrentRow() {
        guard !rows.isEmpty else { return }
        gtk_widget_grab_focus(rows[selectedIndex ?? 0].widget)
    }

    /// Whether the sidebar is shown.
    var isShown: Bool {
        get { container.isVisible }
        set { container.isVisible = newValue }
    }
}
