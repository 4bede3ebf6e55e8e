import CGtk
import CTrellisGtk
import TrellisCore

/// Names an icon-only widget for people: its tooltip (what the pointer shows) and its
/// accessible label (what a screen reader says), from one translated string.
@MainActor
func setAccessibleName(_ widget: GObjectPointer, _ name: String) {
    gtk_widget_set_tooltip_text(widget.as(), name)
    setAccessibleLabel(widget, name)
    // No description: GTK 4.8 would describe the widget by its tooltip, and a screen reader
    // would say the name twice.
    setAccessibleDescription(widget, "")
    hideIcons(in: widget.as())
}

/// A scrolled window whose scroll bars are named for assistive technologies (GTK 4.8 names
/// them "GtkScrollbar", and the part inside "GtkRange").
@MainActor
func makeScrolledWindow() -> ScrolledWindow {
    let scroller = ScrolledWindow(gtk_scrolled_window_new())
    for (bar, name) in [(gtk_scrolled_window_get_vscrollbar(scroller.object.opaque), tr("Vertical scroll bar")),
                        (gtk_scrolled_window_get_hscrollbar(scroller.object.opaque), tr("Horizontal scroll bar"))] {
        guard let bar else { continue }
        setAccessibleLabel(GObjectPointer(bar), name)
        var part = gtk_widget_get_first_child(bar)
        while let current = part {
            setAccessibleLabel(GObjectPointer(current), name)
            part = gtk_widget_get_next_sibling(current)
        }
    }
    return scroller
}

/// Names the parts GTK 4.8 builds into its own windows (the About dialog, the shortcuts
/// window) by their class — a logo "GtkImage", an empty label "GtkLabel", a page switcher
/// "GtkStackSwitcher", a page "GtkStackPage", a text "GtkTextView", a search field
/// "GtkSearchEntry", keys "GtkShortcutLabel", scroll bars — so that a screen reader reads none
/// of those: a logo and an empty label are hidden (the window says the name), a switcher is
/// "Pages", a page and a text are named by the page's title, a search field "Search", keys by
/// what they are ("Ctrl+Q"), a scroll bar by its direction.
@MainActor
func nameGtkParts(in widget: UnsafeMutablePointer<GtkWidget>) {
    var child = gtk_widget_get_first_child(widget)
    while let current = child {
        // Safe: every widget starts with its GTypeInstance.
        let instance = UnsafeMutableRawPointer(current).assumingMemoryBound(to: GTypeInstance.self)
        let object = GObjectPointer(current)
        if g_type_check_instance_is_a(instance, gtk_image_get_type()) != 0, !hasAccessibleLabel(object) {
            setAccessibleHidden(object, true)
        } else if g_type_check_instance_is_a(instance, gtk_label_get_type()) != 0,
                  gtk_label_get_text(OpaquePointer(current)).map({ $0.pointee == 0 }) ?? true {
            setAccessibleHidden(object, true)
        } else if g_type_check_instance_is_a(instance, gtk_stack_switcher_get_type()) != 0 {
            setAccessibleLabel(object, tr("Pages"))
        } else if g_type_check_instance_is_a(instance, gtk_search_entry_get_type()) != 0, !hasAccessibleLabel(object) {
            setAccessibleLabel(object, tr("Search"))
        } else if String(cString: g_type_name_from_instance(instance)) == "GtkShortcutLabel" {
            setAccessibleLabel(object, keysLabel(of: object))
        } else if String(cString: g_type_name_from_instance(instance)) == "GtkBuiltinIcon" {
            setAccessibleHidden(object, true)
        } else if g_type_check_instance_is_a(instance, gtk_menu_button_get_type()) != 0, !hasAccessibleLabel(object) {
            // A menu button GTK gave no name, and the button inside it: its text, else "Menu".
            let name = buttonName(current) ?? tr("Menu")
            setAccessibleLabel(object, name)
            if let inner = gtk_widget_get_first_child(current) { setAccessibleLabel(GObjectPointer(inner), name) }
        } else if trellis_widget_is_button(current) != 0, !hasAccessibleLabel(object), let name = buttonName(current) {
            // A button GTK gave no name: its text, its tooltip, or what its icon stands for.
            setAccessibleLabel(object, name)
        } else if g_type_check_instance_is_a(instance, gtk_text_view_get_type()) != 0, let title = stackPageTitle(around: current) {
            setAccessibleLabel(object, title)
        } else if g_type_check_instance_is_a(instance, gtk_scrollbar_get_type()) != 0 {
            let vertical = gtk_orientable_get_orientation(OpaquePointer(current)) == GTK_ORIENTATION_VERTICAL
            let name = vertical ? tr("Vertical scroll bar") : tr("Horizontal scroll bar")
            setAccessibleLabel(object, name)
            var part = gtk_widget_get_first_child(current)
            while let inner = part {
                setAccessibleLabel(GObjectPointer(inner), name)
                part = gtk_widget_get_next_sibling(inner)
            }
        }
        nameGtkParts(in: current)
        if let parent = gtk_widget_get_parent(current),
           g_type_check_instance_is_a(UnsafeMutableRawPointer(parent).assumingMemoryBound(to: GTypeInstance.self), gtk_stack_get_type()) != 0,
           let page = gtk_stack_get_page(OpaquePointer(parent), current) {
            // The page of a stack: read by its title (GTK 4.8 reads "GtkStackPage" otherwise).
            let title = gtk_stack_page_get_title(page).map { String(cString: $0) } ?? ""
            setAccessibleLabel(gobj(page), title.isEmpty ? tr("Page") : title)
        }
        child = gtk_widget_get_next_sibling(current)
    }
}

/// What a button GTK built says, for a screen reader: the first text inside it, its tooltip,
/// or, for a search icon, "Search".
@MainActor
private func buttonName(_ button: UnsafeMutablePointer<GtkWidget>) -> String? {
    func firstText(in widget: UnsafeMutablePointer<GtkWidget>) -> String? {
        var child = gtk_widget_get_first_child(widget)
        while let current = child {
            // Safe: every widget starts with its GTypeInstance.
            let instance = UnsafeMutableRawPointer(current).assumingMemoryBound(to: GTypeInstance.self)
            if g_type_check_instance_is_a(instance, gtk_label_get_type()) != 0,
               let text = gtk_label_get_text(OpaquePointer(current)).map({ String(cString: $0) }), !text.isEmpty { return text }
            if g_type_check_instance_is_a(instance, gtk_image_get_type()) != 0,
               let icon = gtk_image_get_icon_name(OpaquePointer(current)).map({ String(cString: $0) }), icon.contains("find") || icon.contains("search") {
                return tr("Search")
            }
            if let text = firstText(in: current) { return text }
            child = gtk_widget_get_next_sibling(current)
        }
        return nil
    }
    return firstText(in: button) ?? gtk_widget_get_tooltip_text(button).map { String(cString: $0) }
}

/// What keys a GtkShortcutLabel shows, for people: "Ctrl+Q", "Alt+← or Escape".
@MainActor
private func keysLabel(of shortcutLabel: GObjectPointer) -> String {
    var value = GValue()
    g_value_init(&value, FundamentalType.string)
    defer { g_value_unset(&value) }
    g_object_get_property(shortcutLabel.as(), "accelerator", &value)
    let accelerators = g_value_get_string(&value).map { String(cString: $0) } ?? ""
    return accelerators.split(separator: " ").map { accelerator -> String in
        var key: guint = 0
        var modifiers = GdkModifierType(rawValue: 0)
        guard gtk_accelerator_parse(String(accelerator), &key, &modifiers) != 0,
              let label = gtk_accelerator_get_label(key, modifiers) else { return String(accelerator) }
        defer { g_free(label) }
        return String(cString: label)
    }.joined(separator: tr(" or "))
}

/// The title of the stack page `widget` is on, if it is on one.
@MainActor
private func stackPageTitle(around widget: UnsafeMutablePointer<GtkWidget>) -> String? {
    var child = widget
    while let parent = gtk_widget_get_parent(child) {
        // Safe: as above.
        if g_type_check_instance_is_a(UnsafeMutableRawPointer(parent).assumingMemoryBound(to: GTypeInstance.self),
                                      gtk_stack_get_type()) != 0 {
            return gtk_stack_get_page(OpaquePointer(parent), child).flatMap { gtk_stack_page_get_title($0) }.map { String(cString: $0) }
        }
        child = parent
    }
    return nil
}

/// An overlay that assistive technologies skip as a plain container (GTK 4.8 names one
/// "GtkOverlay").
@MainActor
func makeOverlay() -> Overlay {
    Overlay(retaining: makeWidget(gtk_overlay_get_type(), accessibleRole: GTK_ACCESSIBLE_ROLE_GENERIC))
}

/// Hides the icons inside `widget` from assistive technologies: an icon-only button is read
/// by its own name, not as "GtkImage Back"; a check box by its label, not "GtkBuiltinIcon" (the
/// box GTK draws, a private type known by its name).
@MainActor
func hideIcons(in widget: UnsafeMutablePointer<GtkWidget>) {
    var child = gtk_widget_get_first_child(widget)
    while let current = child {
        // Safe: every widget starts with its GTypeInstance; g_type_name returns GLib's string.
        let instance = UnsafeMutableRawPointer(current).assumingMemoryBound(to: GTypeInstance.self)
        if g_type_check_instance_is_a(instance, gtk_image_get_type()) != 0
            || String(cString: g_type_name_from_instance(instance)) == "GtkBuiltinIcon" {
            setAccessibleHidden(GObjectPointer(current), true)
        } else {
            hideIcons(in: current)
        }
        child = gtk_widget_get_next_sibling(current)
    }
}

/// Whether `widget` has an accessible label set (read through GTK's accessibility testing API).
@MainActor
func hasAccessibleLabel(_ widget: GObjectPointer) -> Bool {
    gtk_test_accessible_has_property(widget.as(), GTK_ACCESSIBLE_PROPERTY_LABEL) != 0
}

/// Hides `widget` and everything inside it from assistive technologies, or shows it again
/// (`GTK_ACCESSIBLE_STATE_HIDDEN`): for what is on screen to GTK but not to people, such as the
/// pages a navigation stack keeps under the one on top.
@MainActor
func setAccessibleHidden(_ widget: GObjectPointer, _ hidden: Bool) {
    var value = GValue()
    g_value_init(&value, GType(5 << 2))  // G_TYPE_BOOLEAN = G_TYPE_MAKE_FUNDAMENTAL (5), a macro Swift cannot see
    g_value_set_boolean(&value, hidden ? 1 : 0)
    var state = GTK_ACCESSIBLE_STATE_HIDDEN
    gtk_accessible_update_state_value(widget.as(), 1, &state, &value)
    g_value_unset(&value)
}

extension Widget {
    /// Names an icon-only widget: its tooltip and its accessible label (``setAccessibleName(_:_:)``).
    func setAccessibleName(_ name: String) {
        TrellisGtk.setAccessibleName(object, name)
    }

    /// Hides the widget from assistive technologies, or shows it again (``setAccessibleHidden(_:_:)``).
    func setAccessibleHidden(_ hidden: Bool) {
        TrellisGtk.setAccessibleHidden(object, hidden)
    }
}
