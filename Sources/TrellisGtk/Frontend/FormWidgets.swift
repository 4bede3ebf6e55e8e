import CGtk
import CTrellisGtk
import TrellisCore

/// Builds the widgets of a ``Form``: a label and an entry (or text view, or read-only label)
/// per field, and a row of buttons. Typing updates the form; `Form.setValues` updates the
/// widgets.
@MainActor
struct FormWidgets {
    let box: Box
    private(set) var fields: [String: Widget] = [:]
    private(set) var buttons: [String: Button] = [:]

    init(form: Form) {
        box = Box(gtk_box_new(GTK_ORIENTATION_VERTICAL, 6))
        for edge in [gtk_widget_set_margin_top, gtk_widget_set_margin_bottom, gtk_widget_set_margin_start, gtk_widget_set_margin_end] {
            edge(box.widget, 18)
        }
        for field in form.fields {
            if field.style == .heading {
                let heading = Label(gtk_label_new(nil))
                let escaped = g_markup_escape_text(field.label, -1)
                gtk_label_set_markup(heading.object.opaque, "<b>\(escaped.map { String(cString: $0) } ?? "")</b>")
                g_free(escaped)
                gtk_label_set_xalign(heading.object.opaque, 0)
                gtk_widget_set_margin_top(heading.widget, fields.isEmpty ? 0 : 12)
                gtk_box_append(box.object.as(), heading.widget)
                fields[field.id] = heading
                continue
            }
            if field.style != .toggle {
                let label = Label(gtk_label_new(field.label))
                gtk_label_set_xalign(label.object.opaque, 0)
                label.addStyleClass("dim-label")
                gtk_box_append(box.object.as(), label.widget)
            }
            let editor = Self.editor(for: field, of: form)
            guard let editor else { continue }
            editor.setAccessibleLabel(field.label)
            if field.style == .multiline {
                // A plain container to screen readers (GTK 4.8 names a frame "GtkFrame").
                let frame = Frame(retaining: makeWidget(gtk_frame_get_type(), accessibleRole: GTK_ACCESSIBLE_ROLE_GENERIC))
                gtk_frame_set_child(frame.object.as(), editor.widget)
                gtk_box_append(box.object.as(), frame.widget)
            } else {
                gtk_box_append(box.object.as(), editor.widget)
            }
            if !field.help.isEmpty {
                let help = Label(gtk_label_new(field.help))
                gtk_label_set_xalign(help.object.opaque, 0)
                gtk_label_set_wrap(help.object.opaque, 1)
                help.addStyleClass("dim-label")
                gtk_box_append(box.object.as(), help.widget)
                editor.setAccessibleDescription(field.help)
            }
            fields[field.id] = editor
        }
        if !form.actions.isEmpty {
            let row = Box(gtk_box_new(GTK_ORIENTATION_HORIZONTAL, 6))
            gtk_widget_set_halign(row.widget, GTK_ALIGN_END)
            gtk_widget_set_margin_top(row.widget, 12)
            for (index, action) in form.actions.enumerated() {
                let button = Button(gtk_button_new_with_label(action.label))
                if index == 0 { button.addStyleClass("suggested-action") }
                if action.isDestructive { button.addStyleClass("destructive-action") }
                button.connect("clicked") { [weak form] in form?.press(action.id) }
                gtk_box_append(row.object.as(), button.widget)
                buttons[action.id] = button
            }
            gtk_box_append(box.object.as(), row.widget)
        }
        // Enter in a single-line field moves on to the next editable field, as in a paper form;
        // in the last, it presses the default action.
        let editable = form.fields.filter(\.style.isEditable)
        for (index, field) in editable.enumerated() where field.style == .singleLine {
            guard let entry = fields[field.id] else { continue }
            let next = editable.indices.contains(index + 1) ? fields[editable[index + 1].id] : nil
            entry.connect("activate") { [weak form, weak next] in
                if let next {
                    gtk_widget_grab_focus(next.widget)
                } else if let form, let first = form.actions.first {
                    form.press(first.id)
                }
            }
        }
        let fields = self.fields
        // The form keeps this closure: capture it weakly, or the form would own itself.
        form.onValuesReplaced = { [weak form] in
            for field in form?.fields ?? [] { FormWidgets.show(field, in: fields[field.id]) }
        }
    }

    /// The widget editing `field` (nil for a heading), its changes told to `form`. The
    /// handlers hold the widget weakly: it owns them.
    private static func editor(for field: Form.Field, of form: Form) -> Widget? {
        switch field.style {
        case .heading:
            return nil
        case .toggle:
            let check = CheckButton(gtk_check_button_new_with_label(field.label))
            hideIcons(in: check.widget)
            gtk_check_button_set_active(check.object.as(), field.value == "true" ? 1 : 0)
            check.connect("toggled") { [weak form, weak check] in
                guard let check else { return }
                form?.userEdited(field.id, value: gtk_check_button_get_active(check.object.as()) != 0 ? "true" : "false")
            }
            return check
        case .number(let range):
            let spin = SpinButton(gtk_spin_button_new_with_range(Double(range.lowerBound), Double(range.upperBound), 1))
            gtk_spin_button_set_digits(spin.object.as(), 0)
            gtk_spin_button_set_value(spin.object.as(), Double(field.value) ?? Double(range.lowerBound))
            gtk_widget_set_halign(spin.widget, GTK_ALIGN_START)
            spin.connect("value-changed") { [weak form, weak spin] in
                guard let spin else { return }
                form?.userEdited(field.id, value: String(Int(gtk_spin_button_get_value(spin.object.as()))))
            }
            return spin
        case .choice(let choices):
            let dropDown = FormWidgets.dropDown(choices, selected: choices.firstIndex(of: field.value))
            gtk_widget_set_halign(dropDown.widget, GTK_ALIGN_START)
            FormWidgets.nameButton(of: dropDown, choices)
            dropDown.connectNotify("selected") { [weak form, weak dropDown] in
                guard let dropDown else { return }
                FormWidgets.nameButton(of: dropDown, choices)
                let index = Int(gtk_drop_down_get_selected(dropDown.object.opaque))
                if choices.indices.contains(index) { form?.userEdited(field.id, value: choices[index]) }
            }
            return dropDown
        case .singleLine:
            let entry = Entry(gtk_entry_new())
            gtk_editable_set_text(entry.object.as(), field.value)
            entry.connect("changed") { [weak form, weak entry] in
                guard let entry else { return }
                form?.userEdited(field.id, value: String(cString: gtk_editable_get_text(entry.object.as())))
            }
            return entry
        case .multiline:
            let textView = TextView(gtk_text_view_new())
            gtk_text_view_set_wrap_mode(textView.object.as(), GTK_WRAP_WORD_CHAR)
            // Tab moves on to the next control, as in every other field (GTK would type a tab).
            gtk_text_view_set_accepts_tab(textView.object.as(), 0)
            textView.setMinimumSize(width: -1, height: 160)
            // Padding inside, a frame outside: the field is visible in light and dark themes.
            gtk_text_view_set_left_margin(textView.object.as(), 8)
            gtk_text_view_set_right_margin(textView.object.as(), 8)
            gtk_text_view_set_top_margin(textView.object.as(), 6)
            gtk_text_view_set_bottom_margin(textView.object.as(), 6)
            let buffer = TextBuffer(retaining: GObjectPointer(gtk_text_view_get_buffer(textView.object.as())))
            gtk_text_buffer_set_text(buffer.object.as(), field.value, -1)
            // The page view keeps the text view (its field), which keeps its buffer.
            buffer.connect("changed") { [weak form, weak textView] in
                guard let textView else { return }
                form?.userEdited(field.id, value: FormWidgets.text(of: textView))
            }
            return textView
        case .readOnly:
            let label = Label(gtk_label_new(field.value))
            gtk_label_set_xalign(label.object.opaque, 0)
            gtk_label_set_wrap(label.object.opaque, 1)
            return label
        }
    }

    /// Shows a field's value in its widget (used when the page replaced values).
    static func show(_ field: Form.Field, in widget: Widget?) {
        guard let widget else { return }
        switch field.style {
        case .singleLine:
            if String(cString: gtk_editable_get_text(widget.object.as())) != field.value { gtk_editable_set_text(widget.object.as(), field.value) }
        case .multiline:
            if text(of: widget) != field.value { gtk_text_buffer_set_text(gtk_text_view_get_buffer(widget.object.as()), field.value, -1) }
        case .readOnly:
            gtk_label_set_text(widget.object.opaque, field.value)
        case .toggle:
            let active: gboolean = field.value == "true" ? 1 : 0
            if gtk_check_button_get_active(widget.object.as()) != active { gtk_check_button_set_active(widget.object.as(), active) }
        case .number:
            if let number = Double(field.value), gtk_spin_button_get_value(widget.object.as()) != number {
                gtk_spin_button_set_value(widget.object.as(), number)
            }
        case .choice(let choices):
            if let index = choices.firstIndex(of: field.value), Int(gtk_drop_down_get_selected(widget.object.opaque)) != index {
                gtk_drop_down_set_selected(widget.object.opaque, guint(index))
            }
        case .heading:
            break
        }
    }

    /// A drop-down list showing `labels`, with item `selected` chosen.
    static func dropDown(_ labels: [String], selected: Int?) -> DropDown {
        // gtk_drop_down_new_from_strings copies the NULL-terminated array of C strings into a
        // GtkStringList; the copies made here are freed once it returns.
        var strings = labels.map { strdup($0) } + [nil]
        defer { for string in strings { free(string) } }
        let widget = strings.withUnsafeMutableBufferPointer { buffer in
            buffer.baseAddress!.withMemoryRebound(to: UnsafePointer<CChar>?.self, capacity: buffer.count) {
                gtk_drop_down_new_from_strings($0)
            }
        }
        let dropDown = DropDown(widget)
        if let selected { gtk_drop_down_set_selected(dropDown.object.opaque, guint(selected)) }
        return dropDown
    }

    /// Names the button inside a drop-down by the choice it shows (GTK 4.8 reads it as
    /// "GtkToggleButton", and never says the choice), and hides what is inside it from screen
    /// readers: Orca reads "Positions from combo box, The app’s choice push button".
    static func nameButton(of dropDown: Widget, _ choices: [String]) {
        let selected = Int(gtk_drop_down_get_selected(dropDown.object.opaque))
        let name = choices.indices.contains(selected) ? choices[selected] : ""
        var child = gtk_widget_get_first_child(dropDown.widget)
        while let current = child {
            if trellis_widget_is_button(current) != 0 {
                setAccessibleLabel(GObjectPointer(current), name)
                var inside = gtk_widget_get_first_child(current)
                while let part = inside {
                    setAccessibleHidden(GObjectPointer(part), true)
                    inside = gtk_widget_get_next_sibling(part)
                }
            }
            child = gtk_widget_get_next_sibling(current)
        }
    }

    /// The text of a text view.
    static func text(of textView: Widget) -> String {
        let buffer = gtk_text_view_get_buffer(textView.object.as())
        var start = GtkTextIter()
        var end = GtkTextIter()
        gtk_text_buffer_get_bounds(buffer, &start, &end)
        guard let chars = gtk_text_buffer_get_text(buffer, &start, &end, 0) else { return "" }
        defer { g_free(chars) }
        return String(cString: chars)
    }
}

/// The key under which a widget keeps the description Trellis gave it (see
/// ``restoreAccessibleDescription(_:)``).
private let ownDescriptionKey = "trellis-accessible-description"

/// Sets the accessible description of a widget (what a screen reader reads after its name);
/// `remember`: it is the widget's own, which ``restoreAccessibleDescription(_:)`` puts back
/// after an announcement borrowed the description (``Announcer``).
@MainActor
func setAccessibleDescription(_ widget: GObjectPointer, _ text: String, remember: Bool = true) {
    if remember {
        // GLib keeps a copy of the text, freed with the widget or the next one set.
        g_object_set_data_full(widget.as(), ownDescriptionKey, g_strdup(text), g_free)
    }
    var value = GValue()
    g_value_init(&value, GType(16 << 2))  // G_TYPE_STRING, as in setAccessibleLabel
    g_value_set_string(&value, text)
    var property = GTK_ACCESSIBLE_PROPERTY_DESCRIPTION
    gtk_accessible_update_property_value(widget.as(), 1, &property, &value)
    g_value_unset(&value)
}

/// Gives a widget back its own description (the last one set with `remember`), or none.
@MainActor
func restoreAccessibleDescription(_ widget: GObjectPointer) {
    if let own = g_object_get_data(widget.as(), ownDescriptionKey) {
        setAccessibleDescription(widget, String(cString: own.assumingMemoryBound(to: CChar.self)), remember: false)
    } else {
        gtk_accessible_reset_property(widget.as(), GTK_ACCESSIBLE_PROPERTY_DESCRIPTION)
    }
}

/// Sets the accessible label of a widget (gtk_accessible_update_property is variadic, so it
/// goes through the GValue form).
@MainActor
func setAccessibleLabel(_ widget: GObjectPointer, _ label: String) {
    var value = GValue()
    g_value_init(&value, GType(16 << 2))  // G_TYPE_STRING = G_TYPE_MAKE_FUNDAMENTAL (16), a macro Swift cannot see
    g_value_set_string(&value, label)
    var property = GTK_ACCESSIBLE_PROPERTY_LABEL
    gtk_accessible_update_property_value(widget.as(), 1, &property, &value)
    g_value_unset(&value)
}
