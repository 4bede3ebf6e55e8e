import CGtk
import Logging
import TrellisCore

/// The GTK widgets showing one page, built from its ``PageContent``.
@MainActor
final class PageView {
    /// The page's top widget (owned by the window's stack once pushed).
    let widget: Widget
    /// The stack child's name in the window.
    var name = ""
    /// Set for table pages: a list, or columns for a table with columns.
    private(set) var list: (any RowsWidget)?
    /// Set for table pages: the line shown over the list while it has no rows.
    private var placeholderLabel: Label?
    /// What the label shows now (nil: hidden), so that a change of rows that leaves the
    /// placeholder as it was (nearly every change) does not touch the widget.
    private var shownPlaceholder: String?
    /// Set for form pages: field id → its editable widget, action id → its button.
    private(set) var fieldWidgets: [String: Widget] = [:]
    private(set) var actionButtons: [String: Button] = [:]
    /// The column holding the content, at most ``ContentWidth/maximum`` wide.
    private var column: Widget?
    private var observation: ObservationToken?
    /// Set for custom pages: the widget the app's renderer built, and the model's changes followed.
    private(set) var customWidget: Widget?
    private var customObservation: ObservationToken?
    private var focusObservation: ObservationToken?
    private var selectionObservation: ObservationToken?
    private let content: PageContent
    /// The validation message the form's invalid field is marked with, if any.
    var invalidMessage: String?
    /// The page's message screen readers were last told of (announced, or read with its field).
    var announcedMessage: String?
    /// The page's title: a list is named after it for screen readers.
    var title: String { didSet { if title != oldValue { describeList() } } }

    /// The view of `content`; custom content is built by the renderer registered for its
    /// model in `renderers` (its text without one).
    init(content: PageContent, renderers: GtkContentRenderers, title: String) {
        self.content = content
        self.title = title
        switch content {
        case .table(let container):
            let list = Self.rowsWidget(for: container)
            list.onActivate = { position in try? container.activate(flatIndex: position) }
            list.onToggle = { position in try? container.toggle(flatIndex: position) }
            self.list = list
            // The list, with the container's placeholder ("No notes yet", "Nothing matches")
            // centred over it while it has no rows; clicks go through to the list.
            let placeholder = Label(gtk_label_new(nil))
            gtk_label_set_wrap(placeholder.object.opaque, 1)
            gtk_label_set_justify(placeholder.object.opaque, GTK_JUSTIFY_CENTER)
            gtk_widget_set_halign(placeholder.widget, GTK_ALIGN_CENTER)
            gtk_widget_set_valign(placeholder.widget, GTK_ALIGN_CENTER)
            for edge in [gtk_widget_set_margin_top, gtk_widget_set_margin_bottom, gtk_widget_set_margin_start, gtk_widget_set_margin_end] {
                edge(placeholder.widget, 24)
            }
            placeholder.addStyleClass("dim-label")
            gtk_widget_set_can_target(placeholder.widget, 0)
            placeholder.isVisible = false
            placeholderLabel = placeholder
            let overlay = makeOverlay()
            let column = ContentWidth.limit(list.widget)
            gtk_overlay_set_child(overlay.object.as(), column.widget)
            gtk_overlay_add_overlay(overlay.object.as(), placeholder.widget)
            (widget, self.column) = (overlay, column)
        case .form(let form):
            let formWidgets = FormWidgets(form: form)
            fieldWidgets = formWidgets.fields
            actionButtons = formWidgets.buttons
            (widget, column) = Self.scrolled(formWidgets.box)
        case .text(let text):
            let label = Self.textLabel(text)
            (widget, column) = Self.scrolled(label)
        case .custom(let custom):
            if let rendered = renderers.render(custom.model) {
                // The drawing's description is its text: a screen reader reads what it shows.
                rendered.widget.setAccessibleDescription(custom.model.accessibleDescription)
                customObservation = custom.onModelChanged { [weak custom] in
                    rendered.update()
                    guard let custom else { return }
                    rendered.widget.setAccessibleDescription(custom.model.accessibleDescription)
                }
                customWidget = rendered.widget
                (widget, column) = Self.scrolled(rendered.widget)
            } else {
                // No renderer registered for the model: its text, as a text page shows it.
                let label = Self.textLabel(custom.textLines.joined(separator: "\n"))
                customObservation = custom.onModelChanged { [weak custom, weak label] in
                    guard let custom, let label else { return }
                    label.text = custom.textLines.joined(separator: "\n")
                }
                (widget, column) = Self.scrolled(label)
            }
        }
        if case .table(let container) = content, let list {
            observation = container.onFlatChanges { [weak self, weak list] changes in
                let rowHadFocus = list?.focusTarget.focusIsInside == true
                for change in changes {
                    list?.itemsChanged(position: change.position, removed: change.removed, added: change.added)
                }
                if rowHadFocus, changes.contains(where: { $0.removed > 0 }), let list { Self.keepFocus(in: list) }
                self?.refreshPlaceholder()
                self?.describeList()
                self?.focusRequestedRow()
            }
            focusObservation = container.onFocusRequest { [weak self] _ in self?.focusRequestedRow() }
            selectionObservation = container.onSelectionChange { [weak list] _ in list?.selectionChanged() }
            refreshPlaceholder()
            describeList()
        }
    }

    /// Keeps the keyboard focus in `list` after rows were removed while one of its rows had it:
    /// if that row went, GTK 4.8 would, at its next layout, give the focus to the window's first
    /// control (the header bar's Show Sections button), and a keyboard user would have to find
    /// the way back. The list takes it back at once: the row now at the focused position (GTK's
    /// focus tracker has moved past the removed rows), or the list itself when it has no row
    /// there. A row that is still there keeps the focus (GTK gives it to the widget it is on).
    private static func keepFocus(in list: any RowsWidget) {
        gtk_widget_grab_focus(list.focusTarget.widget)
    }

    /// A wrapping, top-left aligned label with the margins of a text page.
    private static func textLabel(_ text: String) -> Label {
        let label = Label(gtk_label_new(text))
        gtk_label_set_wrap(label.object.opaque, 1)
        gtk_label_set_xalign(label.object.opaque, 0)
        gtk_label_set_yalign(label.object.opaque, 0)
        for edge in [gtk_widget_set_margin_top, gtk_widget_set_margin_bottom, gtk_widget_set_margin_start, gtk_widget_set_margin_end] {
            edge(label.widget, 18)
        }
        return label
    }

    /// `content` in the page's width-limited column, in a vertically scrolled window.
    private static func scrolled(_ content: Widget) -> (window: Widget, column: Widget) {
        let window = makeScrolledWindow()
        gtk_scrolled_window_set_policy(window.object.opaque, GTK_POLICY_NEVER, GTK_POLICY_AUTOMATIC)
        gtk_widget_set_vexpand(window.widget, 1)
        let column = ContentWidth.limit(content)
        gtk_scrolled_window_set_child(window.object.opaque, column.widget)
        return (window, column)
    }

    /// A list for the container, or a column view when it has columns.
    private static func rowsWidget(for container: TableContainer) -> any RowsWidget {
        guard let columns = container.columns else { return VirtualListView(source: ContainerRows(container)) }
        let view = ColumnTableView(source: ContainerRows(container), titles: columns.map(\.title))
        if let order = container.sortOrder, let index = columns.firstIndex(where: { $0.key == order.key }) {
            view.showSort(column: index, ascending: order.ascending)
        }
        view.onSort = { [weak container] index, ascending in
            do {
                try container?.sort(by: columns[index].key, ascending: ascending)
            } catch {
                Logger(trellis: "trellis.gtk.table").error("cannot sort by \(columns[index].key): \(error)")
            }
        }
        return view
    }

    /// Shows the table's placeholder, or hides it while there are rows. Called on every
    /// change of the rows; the front end calls it after a search too (a search that changes no
    /// row can still change the text).
    func refreshPlaceholder() {
        guard let label = placeholderLabel, let container else { return }
        let text = container.placeholder
        guard text != shownPlaceholder else { return }
        shownPlaceholder = text
        label.text = text ?? ""
        label.isVisible = text != nil
    }

    /// What takes the keyboard focus when the page comes to the top and nothing on screen has
    /// it: the list, or the first editable field.
    var defaultFocus: Widget? {
        if let list { return list.focusTarget }
        return form?.fields.first(where: \.style.isEditable).flatMap { fieldWidgets[$0.id] }
    }

    /// Names the list after the page and its number of rows, for screen readers.
    private func describeList() {
        guard let list, let container else { return }
        list.describe(title: title, rows: container.flatCount)
    }

    /// Gives the keyboard focus to the row the table asked for (``TableContainer/requestFocus(on:)``)
    /// once the list shows it: at once when GTK has its widget, else at one of the next frames.
    private func focusRequestedRow() {
        guard let list, let container, let id = container.focusRequest, let index = container.flatIndex(of: id) else { return }
        if list.focusRow(at: index) { return container.endFocusRequest() }
        FrameTicks.repeatUntilDone(on: list.widget, frames: 30) { [weak container, weak list] in
            guard let container, let list, container.focusRequest == id, let index = container.flatIndex(of: id) else { return true }
            guard list.focusRow(at: index) else { return false }
            container.endFocusRequest()
            return true
        }
    }

    /// The placeholder shown over the list, if any (read from the label, for tests).
    var placeholder: String? {
        guard let label = placeholderLabel, label.isVisible else { return nil }
        return label.text
    }

    /// The width of the content's column at the last layout (automation).
    var contentWidth: Int32 { column.map(ContentWidth.allocatedWidth(of:)) ?? 0 }

    /// Whether `content` is what this view shows already (same container, form or text).
    func shows(_ content: PageContent) -> Bool {
        switch (self.content, content) {
        case (.table(let a), .table(let b)): return a === b
        case (.form(let a), .form(let b)): return a === b
        case (.text(let a), .text(let b)): return a == b
        case (.custom(let a), .custom(let b)): return a === b
        default: return false
        }
    }

    var container: TableContainer? {
        if case .table(let container) = content { return container }
        return nil
    }

    var form: Form? {
        if case .form(let form) = content { return form }
        return nil
    }

    var custom: CustomContent? {
        if case .custom(let custom) = content { return custom }
        return nil
    }
}
