import CGtk
import CTrellisGtk
import Foundation

/// A `GtkListView` in a `GtkScrolledWindow`, fed by a ``VirtualListModel`` through a
/// `GtkSignalListItemFactory`, inside the node a screen reader reads as the list
/// (``ListAccessibility``); one stop of the Tab order (``ListKeys``).
///
/// Row widgets are recycled by GTK: `setup` builds a row (the title's label), `bind` fills it
/// from the row item (putting the title in a box with a check button or a detail label the
/// first time a row of that widget needs one), `unbind` forgets it. Signal closures are owned
/// by the widgets they are connected to and released when those are finalized.
///
/// ```swift
/// let list = VirtualListView(source: StaticRows(["Фэнтези", "Проза"]))
/// list.onActivate = { position in print("activated", position) }
/// gtk_window_set_child(gtkWindow, list.widget.widget)
/// ```
///
/// Internal, as ``ColumnTableView`` is: an app shows a list by giving a page a
/// `TableContainer`, which the window shows through one of them. (Public until 2026-11-28,
/// it could not be put in a window: its widget, and what keeps it alive, were internal.)
@MainActor
final class VirtualListView {
    /// The top widget (the accessible list around a `GtkScrolledWindow`), in the parent it is
    /// added to.
    let widget: Widget
    /// The `GtkListView` inside it.
    let listView: ListView
    /// The `GtkScrolledWindow` around the list view.
    let scroller: Widget
    let model: VirtualListModel

    /// Called with the position of an activated row (click or Enter). Header rows are not activatable.
    var onActivate: ((Int) -> Void)?
    /// Called with the position of a row whose checkbox the user toggled.
    var onToggle: ((Int) -> Void)?

    /// List items currently bound to a row (GTK 4.8 binds about 200 around the visible ones).
    private var bound: Set<GObjectPointer> = []
    /// The widgets of each list item GTK set up, until it tears it down.
    private var rowWidgets: [GObjectPointer: RowWidgets] = [:]
    /// How many row widgets GTK had the factory build (automation: a search keeps them).
    private(set) var rowWidgetsBuilt = 0
    private var binding = false
    /// The source's ``ListRowSource/tellsSelection`` when the rows were last bound.
    private var tellsSelection = false
    /// Whether rows bound now are hidden (GTK is taking a change with every row hidden: ``hide(_:)``).
    private var hidingBoundRows = false

    init(source: any ListRowSource) {
        model = VirtualListModel(source: source)
        let factory = ListItemFactory(taking: GObjectPointer(gtk_signal_list_item_factory_new())!)
        // The selection and GtkListView take ownership ("transfer full") of what they are
        // given: hand each one a reference of its own.
        g_object_ref(model.pointer)
        let selection = ListAccessibility.selection(of: model.listModel)
        // A plain container to screen readers: `widget` is the list they read (its role is
        // given at construction only). The list view takes references of its own to the
        // selection (ours is dropped) and to the factory.
        listView = ListView(retaining: makeWidget(gtk_list_view_get_type(), accessibleRole: GTK_ACCESSIBLE_ROLE_GENERIC))
        gtk_list_view_set_model(listView.object.opaque, selection)
        g_object_unref(UnsafeMutableRawPointer(selection))
        gtk_list_view_set_factory(listView.object.opaque, factory.object.as())
        let scroller = makeScrolledWindow()
        gtk_scrolled_window_set_child(scroller.object.opaque, listView.widget)
        gtk_scrolled_window_set_policy(scroller.object.opaque, GTK_POLICY_NEVER, GTK_POLICY_AUTOMATIC)
        self.scroller = scroller
        widget = ListAccessibility.listContainer(around: scroller)
        gtk_list_view_set_single_click_activate(listView.object.opaque, 1)
        listView.addStyleClass("navigation-sidebar")
        listView.addStyleClass("trellis-list")

        // GTK 4.8 declares the factory's argument a GObject; it is always a GtkListItem.
        let listItem = g_object_get_type()
        factory.connect("setup", object: listItem) { [weak self] item in self?.setup(item) }
        factory.connect("teardown", object: listItem) { [weak self] item in self?.rowWidgets[item] = nil }
        factory.connect("bind", object: listItem) { [weak self] item in self?.bind(item) }
        factory.connect("unbind", object: listItem) { [weak self] item in self?.bound.remove(item) }
        listView.connect("activate", unsignedInteger: { [weak self] position in
            self?.onActivate?(Int(position))
        })
        installSpaceToggle()
        ListKeys.makeOneTabStop(listView)
    }

    /// Announces a change of the source (see ``VirtualListModel/itemsChanged(position:removed:added:)``).
    /// The row widgets at the first replaced positions are kept and filled with the new rows
    /// (``VirtualListModel/itemsChanged(position:removed:added:reusing:)``).
    func itemsChanged(position: Int, removed: Int, added: Int) {
        let toldSelection = tellsSelection
        let replaced = min(removed, added)
        var byPosition: [Int: GObjectPointer] = [:]
        for listItem in bound {
            let at = Int(gtk_list_item_get_position(listItem.opaque))
            if at >= position && at < position + replaced { byPosition[at] = listItem }
        }
        var listItems: [GObjectPointer] = []
        while let listItem = byPosition[position + listItems.count] { listItems.append(listItem) }
        var items = listItems.compactMap { gtk_list_item_get_item($0.opaque) as GObjectPointer? }
        if items.count != listItems.count { (listItems, items) = ([], []) }
        // The rows GTK tears down, and about how many it builds (up to the rows it keeps).
        let tornDown = rows(at: position + items.count..<position + removed)
        let built = max(0, min(added - removed, Self.rowsGTKKeeps - bound.count + tornDown.count))
        let hidingEveryRow = tornDown.count + built >= Self.rowsWorthHidingEveryRow
        hide(hidingEveryRow ? rows(at: 0..<Int.max) : tornDown)
        hidingBoundRows = hidingEveryRow
        model.itemsChanged(position: position, removed: removed, added: added, reusing: items)
        // GTK kept these widgets with the same items, now carrying the new rows: show them.
        for listItem in listItems where bound.contains(listItem) { bind(listItem) }
        if hidingEveryRow { showHiddenRows() }
        // The first row selected or the last one deselected: every row says so again.
        // (GTK binds new rows while the model announces the change: compared with before it.)
        retellSelection(ifChangedFrom: toldSelection)
    }

    func selectionChanged() {
        retellSelection(ifChangedFrom: tellsSelection)
    }

    /// Binds every shown row again when the table went from no selected row to one, or back,
    /// since `told` (``ListRowSource/tellsSelection``): each row says again whether it is selected.
    private func retellSelection(ifChangedFrom told: Bool) {
        if model.source.tellsSelection != told { for listItem in bound { bind(listItem) } }
    }

    /// The row widgets of the bound rows at `positions`, in position order; the focused row's
    /// is left out (hidden, it would lose the keyboard focus).
    private func rows(at positions: Range<Int>) -> [UnsafeMutablePointer<GtkWidget>] {
        let focused = gtk_widget_get_focus_child(listView.widget)
        var rows: [(position: Int, row: UnsafeMutablePointer<GtkWidget>)] = []
        rows.reserveCapacity(bound.count)
        for listItem in bound {
            let at = Int(gtk_list_item_get_position(listItem.opaque))
            guard positions.contains(at), let row = rowWidgets[listItem]?.rowWidget, row != focused else { continue }
            rows.append((at, row))
        }
        return rows.sorted { $0.position < $1.position }.map(\.row)
    }

    /// Hides `rows` (in position order) before GTK takes a change. GTK 4.8 tells the
    /// accessibility tree of each row widget it removes, builds or moves the row's index among
    /// its siblings, found by asking every sibling before it whether it is shown: a hidden one
    /// answers at once, a shown one after looking up its accessible role through
    /// `g_object_get` (until a screen reader has asked for that row). So the rows a change
    /// removes are hidden first; and when GTK removes or builds many row widgets
    /// (``rowsWorthHidingEveryRow``), every row is hidden, those built meanwhile too
    /// (``hidingBoundRows``), and shown again after it, last first, so that each walk finds
    /// only hidden rows before it. The catalog's first letter 'ф' (160 of its 205 rows torn
    /// down) asked thousands of rows with only those removed hidden: a median of 20 ms, now 14. A
    /// screen reader is told those rows left and came back, in the same turn of the main
    /// loop, with no frame between.
    private func hide(_ rows: [UnsafeMutablePointer<GtkWidget>]) {
        for row in rows { gtk_widget_set_visible(row, 0) }
    }

    /// Shows every bound row hidden by ``hide(_:)``, last first, and stops hiding new ones.
    private func showHiddenRows() {
        hidingBoundRows = false
        for row in rows(at: 0..<Int.max).reversed() where gtk_widget_get_visible(row) == 0 {
            gtk_widget_set_visible(row, 1)
        }
    }

    /// Below this many row widgets removed or built, hiding and showing every row (about 1.5
    /// ms for 200) costs more than the walks it saves (about a microsecond per shown row).
    private static let rowsWorthHidingEveryRow = 16
    /// How many rows GTK 4.8's list view keeps widgets for, around those shown.
    private static let rowsGTKKeeps = 200

    // MARK: - Factory

    /// The widgets of one row. GTK 4.8 keeps about 200 rows and builds or tears down a row's
    /// widgets whenever a search changes how many rows there are, each also added to or removed
    /// from the accessibility tree: so a row starts as its title's label alone, and goes into a
    /// box with a check button or a detail label the first time a row of that widget has one (a
    /// catalog's row never does). A box for every row cost the catalog's first frame 23 M of
    /// its 364 M main-thread instructions (callgrind).
    @MainActor
    private final class RowWidgets {
        let listItem: GObjectPointer
        let title: GObjectPointer
        /// The box holding the title and the check button or detail label, once there is one.
        private(set) var box: GObjectPointer?
        var check: GObjectPointer?
        var detail: GObjectPointer?

        init(listItem: GObjectPointer, title: GObjectPointer) {
            self.listItem = listItem
            self.title = title
        }

        /// The list item's child: the title, or the box around it.
        var child: GObjectPointer { box ?? title }

        /// GTK's row widget, the child's parent (while the list item is shown).
        var rowWidget: UnsafeMutablePointer<GtkWidget>? { gtk_widget_get_parent(child.as()) }

        /// The box around the title, made the first time the row needs one: it takes the title's
        /// place as the list item's child, with its margins and style classes.
        func makeBox() -> GObjectPointer {
            if let box { return box }
            let box = GObjectPointer(gtk_box_new(GTK_ORIENTATION_HORIZONTAL, 8))!
            g_object_ref(title)  // kept while it moves from the list item into the box
            defer { g_object_unref(title) }
            gtk_list_item_set_child(listItem.opaque, nil)
            Self.setMargins(of: title, 0)
            Self.setMargins(of: box, Self.margin)
            // Sharing the row's width with a detail label: as wide as its text, as a GtkLabel.
            trellis_row_label_set_natural_width_exact(title.as(), 1)
            gtk_box_append(box.as(), title.as())
            gtk_list_item_set_child(listItem.opaque, box.as())
            self.box = box
            return box
        }

        static let margin: Int32 = 4

        static func setMargins(of widget: GObjectPointer, _ margin: Int32) {
            gtk_widget_set_margin_top(widget.as(), margin)
            gtk_widget_set_margin_bottom(widget.as(), margin)
        }
    }

    private func setup(_ listItem: GObjectPointer) {
        rowWidgetsBuilt += 1
        // Laid out only when drawn on screen (trellis-row-label.h): GTK binds ~200 rows a search
        // sets new texts on, 20–30 of them shown.
        let title = GObjectPointer(trellis_row_label_new())!
        gtk_widget_set_hexpand(title.as(), 1)
        RowWidgets.setMargins(of: title, RowWidgets.margin)
        gtk_list_item_set_child(listItem.opaque, title.as())
        rowWidgets[listItem] = RowWidgets(listItem: listItem, title: title)
    }

    /// The row's check button, made (before the title) the first time the row shows one.
    private func check(of listItem: GObjectPointer, _ row: RowWidgets) -> GObjectPointer {
        if let check = row.check { return check }
        let check = GObjectPointer(gtk_check_button_new())!
        hideIcons(in: check.as())
        gtk_box_prepend(row.makeBox().as(), check.as())
        // The list item owns its row, which owns this handler: it only runs while `listItem` lives.
        Signals.connect(check, "toggled") { [weak self] in
            guard let self, !self.binding else { return }
            self.onToggle?(Int(gtk_list_item_get_position(listItem.opaque)))
        }
        row.check = check
        return check
    }

    /// The row's detail label, made (after the title) the first time the row shows one.
    private func detail(of row: RowWidgets) -> GObjectPointer {
        if let detail = row.detail { return detail }
        let detail = GObjectPointer(gtk_label_new(nil))!
        gtk_label_set_xalign(detail.as(), 1)
        gtk_label_set_ellipsize(detail.as(), PANGO_ELLIPSIZE_END)
        gtk_label_set_max_width_chars(detail.as(), 40)
        gtk_label_set_single_line_mode(detail.as(), 1)
        addStyleClass(detail, "dim-label")
        gtk_box_append(row.makeBox().as(), detail.as())
        row.detail = detail
        return detail
    }

    private func bind(_ listItem: GObjectPointer) {
        guard let item = gtk_list_item_get_item(listItem.opaque), let row = VirtualListModel.row(of: item),
              let widgets = rowWidgets[listItem] else { return }
        binding = true
        defer { binding = false }
        bound.insert(listItem)
        tellsSelection = model.source.tellsSelection
        let rowWidget = widgets.rowWidget
        if hidingBoundRows, let rowWidget { gtk_widget_set_visible(rowWidget, 0) }
        // Opening the row, or ticking a checklist's, as a click does: the row widget (GTK's list
        // item widget, the child's parent) exists once the row is bound.
        if let rowWidget { trellis_row_offer_activation(rowWidget) }  // trellis-row-activation.h
        switch row {
        case .header(let text):
            trellis_row_label_set_text(widgets.title.as(), text)
            if let detail = widgets.detail { gtk_widget_set_visible(detail.as(), 0) }
            nameRow(rowWidget, text)
            if let check = widgets.check { gtk_widget_set_visible(check.as(), 0) }
            gtk_widget_add_css_class(widgets.title.as(), "heading")
            gtk_list_item_set_activatable(listItem.opaque, 0)
            gtk_list_item_set_selectable(listItem.opaque, 0)
            if let rowWidget {
                ListAccessibility.setChecked(rowWidget, nil)
                SelectedRow.mark(rowWidget, selected: false)
                SelectedRow.tell(rowWidget, row, tellsSelection: tellsSelection)
            }
        case .item(let columns, let checkbox, let selected):
            trellis_row_label_set_text(widgets.title.as(), columns.first ?? "")
            let detailText = columns.dropFirst().joined(separator: " · ")
            // An empty label would be read as "GtkLabel": it is hidden.
            if !detailText.isEmpty {
                let detail = detail(of: widgets)
                gtk_label_set_text(detail.as(), detailText.contains("\n") ? detailText.replacingOccurrences(of: "\n", with: " ") : detailText)
                gtk_widget_set_visible(detail.as(), 1)
            } else if let detail = widgets.detail {
                gtk_widget_set_visible(detail.as(), 0)
            }
            let name = columns.filter { !$0.isEmpty }.joined(separator: ", ")
            nameRow(rowWidget, name)
            gtk_widget_remove_css_class(widgets.title.as(), "heading")
            if let checkbox {
                let check = check(of: listItem, widgets)
                setAccessibleLabel(check, columns.first ?? name)
                gtk_widget_set_visible(check.as(), 1)
                gtk_check_button_set_active(check.as(), checkbox ? 1 : 0)
            } else if let check = widgets.check {
                gtk_widget_set_visible(check.as(), 0)
            }
            gtk_list_item_set_activatable(listItem.opaque, 1)
            // GTK 4.8 focuses only a selectable row (see ListAccessibility.selection). A
            // checklist's row is checked or not.
            gtk_list_item_set_selectable(listItem.opaque, 1)
            if let rowWidget {
                ListAccessibility.setChecked(rowWidget, checkbox)
                SelectedRow.mark(rowWidget, selected: selected && checkbox == nil)
                SelectedRow.tell(rowWidget, row, tellsSelection: tellsSelection)
            }
        }
    }

    /// Names the row for screen readers: GTK 4.8 reads a list row (the list item's widget, the
    /// parent of our title or box) by its accessible label only, not by the labels inside it.
    private func nameRow(_ rowWidget: UnsafeMutablePointer<GtkWidget>?, _ name: String) {
        guard let rowWidget else { return }
        setAccessibleLabel(GObjectPointer(rowWidget), name)
    }

    // MARK: - Screen readers and focus

    /// The widget that takes the keyboard focus: the list view.
    var focusTarget: Widget { listView }

    /// Gives the focus to the row that had it last, else to the first row on screen.
    func enterList() -> Bool {
        if gtk_widget_grab_focus(listView.widget) != 0, listView.focusIsInside { return true }
        return focusRow(at: visibleRows().first?.position ?? 0)
    }

    /// Names the list for screen readers: `title` and how many rows it shows.
    func describe(title: String, rows: Int) {
        widget.setAccessibleLabel(ListAccessibility.name(title, rows: rows))
    }

    /// Scrolls to row `position` and gives it the keyboard focus; `false` while GTK has no
    /// widget for it yet (it makes one when it next lays the list out).
    func focusRow(at position: Int) -> Bool {
        gtk_widget_activate_action_variant(listView.widget, "list.scroll-to-item", g_variant_new_uint32(guint32(position)))
        for listItem in bound where Int(gtk_list_item_get_position(listItem.opaque)) == position {
            guard let child = gtk_list_item_get_child(listItem.opaque), let row = gtk_widget_get_parent(child) else { return false }
            return gtk_widget_grab_focus(row) != 0
        }
        return false
    }

    // MARK: - Keys

    /// Space on a row with a checkbox ticks or unticks it, as a click does (GTK's Space would
    /// select the row, which these lists do not do; Enter activates a row as GTK has it). In
    /// the capture phase, so that a focused check button does not toggle it a second time.
    private func installSpaceToggle() {
        let controller = gtk_shortcut_controller_new()!
        gtk_event_controller_set_propagation_phase(controller, GTK_PHASE_CAPTURE)
        ListKeys.add("space", to: controller) { [weak self] in self?.toggleFocusedRow() ?? false }
        gtk_widget_add_controller(listView.widget, controller)
    }

    /// Toggles the focused row's checkbox; `false` (the key goes on) when no row with a
    /// checkbox has the focus.
    private func toggleFocusedRow() -> Bool {
        guard let focused = gtk_widget_get_focus_child(listView.widget) else { return false }
        for listItem in bound {
            guard let widgets = rowWidgets[listItem], widgets.rowWidget == focused else { continue }
            guard let check = widgets.check, gtk_widget_get_visible(check.as()) != 0 else { return false }
            onToggle?(Int(gtk_list_item_get_position(listItem.opaque)))
            return true
        }
        return false
    }

    // MARK: - Acting as the user (automation)

    /// Activates row `position` through `GtkListView::activate`, as a click or Enter does.
    func activate(position: Int) {
        trellis_list_view_emit_activate(listView.object.opaque, guint(position))
    }

    /// Where row `position` and its checkbox are, in the coordinates of `window` (for tests that
    /// click with real pointer events); `nil` when the row has no widget now.
    func bounds(position: Int, in window: Widget) -> (row: graphene_rect_t, checkbox: graphene_rect_t)? {
        for listItem in bound where Int(gtk_list_item_get_position(listItem.opaque)) == position {
            guard let widgets = rowWidgets[listItem] else { return nil }
            var row = graphene_rect_t(), checkbox = graphene_rect_t()
            guard gtk_widget_compute_bounds(widgets.child.as(), window.widget, &row) != 0 else { return nil }
            if let check = widgets.check, gtk_widget_compute_bounds(check.as(), window.widget, &checkbox) == 0 { return nil }
            return (row, checkbox)
        }
        return nil
    }

    /// Clicks the checkbox of row `position`. Returns `false` when that row has no widget
    /// (it is scrolled out of view) or no checkbox.
    func clickCheckbox(position: Int) -> Bool {
        for listItem in bound where Int(gtk_list_item_get_position(listItem.opaque)) == position {
            guard let check = rowWidgets[listItem]?.check, gtk_widget_get_visible(check.as()) != 0 else { return false }
            // Activating the widget is what a click does: it flips the state and emits "toggled".
            return gtk_widget_activate(check.as()) != 0
        }
        return false
    }

    // MARK: - Inspection (automation)

    /// The rows whose widgets are at least partly inside the visible part of the list, in
    /// position order, as `(position, text, checkbox)`.
    func visibleRows() -> [(position: Int, text: String, checkbox: Bool?)] {
        let viewport = graphene_rect_t(origin: .init(x: 0, y: 0),
                                       size: .init(width: Float(widget.width), height: Float(widget.height)))
        var rows: [(Int, String, Bool?)] = []
        for listItem in bound {
            guard let widgets = rowWidgets[listItem], gtk_widget_get_mapped(widgets.child.as()) != 0 else { continue }
            var bounds = graphene_rect_t()
            guard gtk_widget_compute_bounds(widgets.child.as(), widget.widget, &bounds) != 0 else { continue }
            var copy = viewport
            guard graphene_rect_intersection(&copy, &bounds, nil), bounds.size.height > 0 else { continue }
            var text = String(cString: trellis_row_label_get_text(widgets.title.as()))
            if let detail = widgets.detail, gtk_widget_get_visible(detail.as()) != 0 {
                text += " · " + String(cString: gtk_label_get_text(detail.as()))
            }
            let checkbox: Bool? = widgets.check.flatMap { check in
                gtk_widget_get_visible(check.as()) != 0 ? gtk_check_button_get_active(check.as()) != 0 : nil
            }
            rows.append((Int(gtk_list_item_get_position(listItem.opaque)), text, checkbox))
        }
        return rows.sorted { $0.0 < $1.0 }
    }
}
