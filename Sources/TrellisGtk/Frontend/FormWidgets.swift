import CGtk
import TrellisCore

/// Builds the widgets of a ``Form``: a label and an entry (or text view, or read-only label)
/// per field, and a row of buttons. Typing updates the form; `Form.setValues` updates the
/// widgets.
@MainActor
struct FormWidgets {
    let box: GObjectPointer
    private(set) var fields: [String: GObjectPointer] = [:]
    private(set) var buttons: [String: GObjectPointer] = [:]

    init(form: Form) {
        box = GObjectPointer(gtk_box_new(GTK_ORIENTATION_VERTICAL, 6))!
        for edge in [gtk_widget_set_margin_top, gtk_widget_set_margin_bottom, gtk_widget_set_margin_start, gtk_widget_set_margin_end] {
            edge(box.as(), 18)
        }
        for field in form.fields {
            if field.style == .heading {
                let heading = GObjectPointer(gtk_label_new(nil))!
                let escaped = g_markup_escape_text(field.label, -1)
                gtk_label_set_markup(heading.as(), "<b>\(escaped.map { String(cString: $0) } ?? "")</b>")
                g_free(escaped)
                gtk_label_set_xalign(heading.as(), 0)
                gtk_widget_set_margin_top(heading.as(), fields.isEmpty ? 0 : 12)
                gtk_box_append(box.as(), heading.as())
                fields[field.id] = heading
                continue
            }
            if field.style != .toggle {
                let label = GObjectPointer(gtk_label_new(field.label))!
                gtk_label_set_xalign(label.as(), 0)
                addStyleClass(label, "dim-label")
                gtk_box_append(box.as(), label.as())
            }
            let editor: GObjectPointer
            switch field.style {
            case .toggle:
                editor = GObjectPointer(gtk_check_button_new_with_label(field.label))!
                gtk_check_button_set_active(editor.as(), field.value == "true" ? 1 : 0)
                Signals.connect(editor, "toggled") { button in
                    form.userEdited(field.id, value: gtk_check_button_get_active(button.as()) != 0 ? "true" : "false")
                }
            case .number(let range):
                editor = GObjectPointer(gtk_spin_button_new_with_range(Double(range.lowerBound), Double(range.upperBound), 1))!
                gtk_spin_button_set_digits(editor.as(), 0)
                gtk_spin_button_set_value(editor.as(), Double(field.value) ?? Double(range.lowerBound))
                gtk_widget_set_halign(editor.as(), GTK_ALIGN_START)
                Signals.connect(editor, "value-changed") { spin in
                    form.userEdited(field.id, value: String(Int(gtk_spin_button_get_value(spin.as()))))
                }
            case .choice(let choices):
                editor = FormWidgets.dropDown(choices, selected: field.value)
                gtk_widget_set_halign(editor.as(), GTK_ALIGN_START)
                Signals.connect(editor, "notify::selected") { dropDown in
                    let index = Int(gtk_drop_down_get_selected(dropDown.as()))
                    if choices.indices.contains(index) { form.userEdited(field.id, value: choices[index]) }
                }
            case .heading:
                continue  // shown above
            case .singleLine:
                editor = GObjectPointer(gtk_entry_new())!
                gtk_editable_set_text(editor.as(), field.value)
                Signals.connect(editor, "changed") { entry in
                    form.userEdited(field.id, value: String(cString: gtk_editable_get_text(entry.as())))
                }
            case .multiline:
                editor = GObjectPointer(gtk_text_view_new())!
                gtk_text_view_set_wrap_mode(editor.as(), GTK_WRAP_WORD_CHAR)
                gtk_widget_set_size_request(editor.as(), -1, 160)
                // Padding inside, a frame outside: the field is visible in light and dark themes.
                gtk_text_view_set_left_margin(editor.as(), 8)
                gtk_text_view_set_right_margin(editor.as(), 8)
                gtk_text_view_set_top_margin(editor.as(), 6)
                gtk_text_view_set_bottom_margin(editor.as(), 6)
                let buffer = GObjectPointer(gtk_text_view_get_buffer(editor.as()))!
                gtk_text_buffer_set_text(buffer.as(), field.value, -1)
                Signals.connect(buffer, "changed") { buffer in
                    form.userEdited(field.id, value: FormWidgets.text(of: buffer))
                }
            case .readOnly:
                editor = GObjectPointer(gtk_label_new(field.value))!
                gtk_label_set_xalign(editor.as(), 0)
                gtk_label_set_wrap(editor.as(), 1)
            }
            setAccessibleLabel(editor, field.label)
            defer {
                if !field.help.isEmpty {
                    let help = GObjectPointer(gtk_label_new(field.help))!
                    gtk_label_set_xalign(help.as(), 0)
                    gtk_label_set_wrap(help.as(), 1)
                    addStyleClass(help, "dim-label")
                    gtk_box_append(box.as(), help.as())
                    setAccessibleDescription(editor, field.help)
                }
            }
            if field.style == .multiline {
                let frame = GObjectPointer(gtk_frame_new(nil))!
                gtk_frame_set_child(frame.as(), editor.as())
                gtk_box_append(box.as(), frame.as())
            } else {
                gtk_box_append(box.as(), editor.as())
            }
            fields[field.id] = editor
        }
        if !form.actions.isEmpty {
            let row = GObjectPointer(gtk_box_new(GTK_ORIENTATION_HORIZONTAL, 6))!
            gtk_widget_set_halign(row.as(), GTK_ALIGN_END)
            gtk_widget_set_margin_top(row.as(), 12)
            for (index, action) in form.actions.enumerated() {
                let button = GObjectPointer(gtk_button_new_with_label(action.label))!
                if index == 0 { addStyleClass(button, "suggested-action") }
                if action.isDestructive { addStyleClass(button, "destructive-action") }
                Signals.connect(button, "clicked") { _ in form.press(action.id) }
                gtk_box_append(row.as(), button.as())
                buttons[action.id] = button
            }
            gtk_box_append(box.as(), row.as())
        }
        // Enter in a single-line field moves on to the next editable field, as in a paper form;
        // in the last, it presses the default action. The next widget is a sibling in this box:
        // both live exactly as long as the box, and the handler only runs while the entry does.
        let editable = form.fields.filter(\.style.isEditable)
        for (index, field) in editable.enumerated() where field.style == .singleLine {
            guard let entry = fields[field.id] else { continue }
            let next = editable.indices.contains(index + 1) ? fields[editable[index + 1].id] : nil
            Signals.connect(entry, "activate") { [weak form] _ in
                if let next {
                    gtk_widget_grab_focus(next.as())
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

    /// Shows a field's value in its widget (used when the page replaced values).
    static func show(_ field: Form.Field, in widget: GObjectPointer?) {
        guard let widget else { return }
        switch field.style {
        case .singleLine:
            if String(cString: gtk_editable_get_text(widget.as())) != field.value { gtk_editable_set_text(widget.as(), field.value) }
        case .multiline:
            let buffer = GObjectPointer(gtk_text_view_get_buffer(widget.as()))!
            if text(of: buffer) != field.value { gtk_text_buffer_set_text(buffer.as(), field.value, -1) }
        case .readOnly:
            gtk_label_set_text(widget.as(), field.value)
        case .toggle:
            let active: gboolean = field.value == "true" ? 1 : 0
            if gtk_check_button_get_active(widget.as()) != active { gtk_check_button_set_active(widget.as(), active) }
        case .number:
            if let number = Double(field.value), gtk_spin_button_get_value(widget.as()) != number { gtk_spin_button_set_value(widget.as(), number) }
        case .choice(let choices):
            if let index = choices.firstIndex(of: field.value), Int(gtk_drop_down_get_selected(widget.as())) != index {
                gtk_drop_down_set_selected(widget.as(), guint(index))
            }
        case .heading:
            break
        }
    }

    /// A drop-down list of `choices`, showing `selected`.
    static func dropDown(_ choices: [String], selected: String) -> GObjectPointer {
        // gtk_drop_down_new_from_strings copies the NULL-terminated array of C strings into a
        // GtkStringList; the copies made here are freed once it returns.
        var strings = choices.map { strdup($0) } + [nil]
        defer { for string in strings { free(string) } }
        let widget = strings.withUnsafeMutableBufferPointer { buffer in
            buffer.baseAddress!.withMemoryRebound(to: UnsafePointer<CChar>?.self, capacity: buffer.count) {
                gtk_drop_down_new_from_strings($0)
            }
        }
        let dropDown = GObjectPointer(widget)!
        if let index = choices.firstIndex(of: selected) { gtk_drop_down_set_selected(dropDown.as(), guint(index)) }
        return dropDown
    }

    static func text(of buffer: GObjectPointer) -> String {
        var start = GtkTextIter()
        var end = GtkTextIter()
        gtk_text_buffer_get_bounds(buffer.as(), &start, &end)
        guard let chars = gtk_text_buffer_get_text(buffer.as(), &start, &end, 0) else { return "" }
        defer { g_free(chars) }
        return String(cString: chars)
    }
}

/// Sets the accessible description of a widget (what a screen reader reads after its name).
@MainActor
func setAccessibleDescription(_ widget: GObjectPointer, _ text: String) {
    var value = GValue()
    g_value_init(&value, GType(16 << 2))  // G_TYPE_STRING, as in setAccessibleLabel
    g_value_set_string(&value, text)
    var property = GTK_ACCESSIBLE_PROPERTY_DESCRIPTION
    gtk_accessible_update_property_value(widget.as(), 1, &property, &value)
    g_value_unset(&value)
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
