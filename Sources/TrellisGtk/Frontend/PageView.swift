import CGtk
import Logging
import TrellisCore

/// The GTK widgets showing one page, built from its ``PageContent``.
@MainActor
final class PageView {
    /// The page's top widget (owned by the window's stack once pushed).
    let widget: GObjectPointer
    /// The stack child's name in the window.
    var name = ""
    /// Set for table pages: a list, or columns for a table with columns.
    private(set) var list: (any RowsWidget)?
    /// Set for table pages: the line shown over the list while it has no rows.
    private var placeholderLabel: GObjectPointer?
    /// What the label shows now (nil: hidden), so that a change of rows that leaves the
    /// placeholder as it was (nearly every change) does not touch the widget.
    private var shownPlaceholder: String?
    /// Set for form pages: field id → its editable widget, action id → its button.
    private(set) var fieldWidgets: [String: GObjectPointer] = [:]
    private(set) var actionButtons: [String: GObjectPointer] = [:]
    /// The column holding the content, at most ``ContentWidth/maximum`` wide.
    private var column: GObjectPointer?
    private var observation: ObservationToken?
    /// Set for custom pages: the widget the app's renderer built, and the model's changes followed.
    private(set) var customWidget: Widget?
    private var customObservation: ObservationToken?
    private let content: PageContent

    /// The view of `content`; custom content is built by the renderer registered for its
    /// model in `renderers` (its text without one).
    init(content: PageContent, renderers: GtkContentRenderers) {
        self.content = content
        switch content {
        case .table(let container):
            let list = Self.rowsWidget(for: container)
            list.onActivate = { position in try? container.activate(flatIndex: position) }
            list.onToggle = { position in try? container.toggle(flatIndex: position) }
            self.list = list
            // The list, with the container's placeholder ("No notes yet", "Nothing matches")
            // centred over it while it has no rows; clicks go through to the list.
            let placeholder = GObjectPointer(gtk_label_new(nil))!
            gtk_label_set_wrap(placeholder.as(), 1)
            gtk_label_set_justify(placeholder.as(), GTK_JUSTIFY_CENTER)
            gtk_widget_set_halign(placeholder.as(), GTK_ALIGN_CENTER)
            gtk_widget_set_valign(placeholder.as(), GTK_ALIGN_CENTER)
            for edge in [gtk_widget_set_margin_top, gtk_widget_set_margin_bottom, gtk_widget_set_margin_start, gtk_widget_set_margin_end] {
                edge(placeholder.as(), 24)
            }
            addStyleClass(placeholder, "dim-label")
            gtk_widget_set_can_target(placeholder.as(), 0)
            gtk_widget_set_visible(placeholder.as(), 0)
            placeholderLabel = placeholder
            widget = GObjectPointer(gtk_overlay_new())!
            column = ContentWidth.limit(list.widget)
            gtk_overlay_set_child(widget.as(), column!.as())
            gtk_overlay_add_overlay(widget.as(), placeholder.as())
        case .form(let form):
            widget = GObjectPointer(gtk_scrolled_window_new())!
            gtk_scrolled_window_set_policy(widget.as(), GTK_POLICY_NEVER, GTK_POLICY_AUTOMATIC)
            gtk_widget_set_vexpand(widget.as(), 1)
            let formWidgets = FormWidgets(form: form)
            fieldWidgets = formWidgets.fields
            actionButtons = formWidgets.buttons
            column = ContentWidth.limit(formWidgets.box)
            gtk_scrolled_window_set_child(widget.as(), column!.as())
        case .text(let text):
            let label = Self.textLabel(text)
            (widget, column) = Self.scrolled(label)
        case .custom(let custom):
            if let rendered = renderers.render(custom.model) {
                // The drawing's description is its text: a screen reader reads what it shows.
                setAccessibleDescription(rendered.widget.object, custom.textLines.joined(separator: "\n"))
                customObservation = custom.onModelChanged { [weak custom] in
                    rendered.update()
                    guard let custom else { return }
                    setAccessibleDescription(rendered.widget.object, custom.textLines.joined(separator: "\n"))
                }
                customWidget = rendered.widget
                (widget, column) = Self.scrolled(rendered.widget.object)
            } else {
                // No renderer registered for the model: its text, as a text page shows it.
                let label = Self.textLabel(custom.textLines.joined(separator: "\n"))
                customObservation = custom.onModelChanged { [weak custom] in
                    guard let custom else { return }
                    gtk_label_set_text(label.opaque, custom.textLines.joined(separator: "\n"))
                }
                (widget, column) = Self.scrolled(label)
            }
        }
        if case .table(let container) = content, let list {
            observation = container.onFlatChanges { [weak self, weak list] changes in
                for change in changes {
                    list?.itemsChanged(position: change.position, removed: change.removed, added: change.added)
                }
                self?.refreshPlaceholder()
            }
            refreshPlaceholder()
        }
    }

    /// A wrapping, top-left aligned label with the margins of a text page.
    private static func textLabel(_ text: String) -> GObjectPointer {
        let label = GObjectPointer(gtk_label_new(text))!
        gtk_label_set_wrap(label.as(), 1)
        gtk_label_set_xalign(label.as(), 0)
        gtk_label_set_yalign(label.as(), 0)
        for edge in [gtk_widget_set_margin_top, gtk_widget_set_margin_bottom, gtk_widget_set_margin_start, gtk_widget_set_margin_end] {
            edge(label.as(), 18)
        }
        return label
    }

    /// `content` in the page's width-limited column, in a vertically scrolled window.
    private static func scrolled(_ content: GObjectPointer) -> (window: GObjectPointer, column: GObjectPointer) {
        let window = GObjectPointer(gtk_scrolled_window_new())!
        gtk_widget_set_vexpand(window.as(), 1)
        let column = ContentWidth.limit(content)
        gtk_scrolled_window_set_child(window.as(), column.as())
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
        gtk_label_set_text(label.opaque, text ?? "")
        gtk_widget_set_visible(label.as(), text == nil ? 0 : 1)
    }

    /// The placeholder shown over the list, if any (read from the label, for tests).
    var placeholder: String? {
        guard let label = placeholderLabel, gtk_widget_get_visible(label.as()) != 0 else { return nil }
        return String(cString: gtk_label_get_text(label.opaque))
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
