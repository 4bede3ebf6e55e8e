import CGtk

/// The few styles Trellis adds to the theme, all from the theme's named colours
/// (`@theme_fg_color`, `@error_color`, …), so they follow light, dark and any other theme, and
/// every text keeps a contrast of at least 4.5:1 (WCAG AA) on GTK 4.8's own themes, light and
/// dark (checked from screenshots by `ContrastWindowTests`):
///
/// - the page's message is a banner: a problem tinted with the error colour, information with
///   the selection colour, its text in the theme's text colour (the theme draws `label.error`
///   in a fixed red, 2.1:1 on the dark theme);
/// - a field marked invalid keeps its text readable and is outlined in the error colour (the
///   theme would draw its text in that red);
/// - dimmed text (a field's label, a row's detail, the status line) is dimmed less than the
///   theme's 55 % opacity, which gives 3.2:1 on the light theme;
/// - a suggested button (Save) is a shade darker than the selection colour its white text
///   stands on, which gives 3.8:1 on the light theme;
/// - the sidebar's current section is tinted with the text colour, as the theme tints a
///   selected row (the sidebar has no GTK selection, see ``SectionSidebar``);
/// - the rows of a table's list are all selected to GTK (`ListAccessibility.selection`), and
///   drawn as rows that are not; a row the table marks selected, with no checkbox to show it,
///   is tinted with the selection colour (``SelectedRow``);
/// - a table's column headers are less faded than the theme's (2.8:1 on the light theme);
/// - a notice's translucent dark background is darker (4.2:1 over a light page).
@MainActor
enum WindowStyle {
    /// The style sheet, at application priority (above the theme, below the user's own).
    static let css = """
        label.trellis-message { padding: 8px 12px; margin: 6px 12px 0 12px; border-radius: 6px;
                                color: @theme_fg_color; }
        label.trellis-message.trellis-error { background-color: mix(@error_color, @theme_bg_color, 0.8);
                                              box-shadow: inset 4px 0 @error_color; }
        label.trellis-message.trellis-information { background-color: mix(@theme_selected_bg_color, @theme_bg_color, 0.85);
                                                    box-shadow: inset 4px 0 @theme_selected_bg_color; }
        entry.error, spinbutton.error, frame.error { color: @theme_text_color; outline: 2px solid @error_color;
                                                     outline-offset: -2px; }
        .dim-label { opacity: 0.7; }
        button.suggested-action:not(:disabled) { background-image: image(shade(@theme_selected_bg_color, 0.85)); }
        button.suggested-action:hover:not(:disabled) { background-image: image(shade(@theme_selected_bg_color, 0.9)); }
        button.suggested-action:active:not(:disabled) { background-image: image(shade(@theme_selected_bg_color, 0.8)); }
        .navigation-sidebar > row.trellis-current { background-color: alpha(@theme_fg_color, 0.1); }
        .trellis-list > row:selected, .trellis-list > listview > row:selected { background-color: transparent; color: inherit; }
        columnview.trellis-list > header > button { color: mix(@theme_fg_color, @theme_base_color, 0.25); }
        .app-notification.trellis-notice { background-color: alpha(black, 0.8); }
        .trellis-list > row:selected:hover, .trellis-list > listview > row:selected:hover { background-color: alpha(@theme_fg_color, 0.07); }
        .trellis-list > row.trellis-selected, .trellis-list > listview > row.trellis-selected { background-color: alpha(@theme_selected_bg_color, 0.25); }
        .trellis-list > row.trellis-selected:hover, .trellis-list > listview > row.trellis-selected:hover { background-color: alpha(@theme_selected_bg_color, 0.32); }
        """

    private static var installed = false

    /// Adds the style sheet to the default display, once.
    static func install() {
        guard !installed, let display = gdk_display_get_default() else { return }
        installed = true
        let provider = gtk_css_provider_new()!
        gtk_css_provider_load_from_data(provider, css, -1)
        // The display keeps the provider (a reference of its own) as long as it lives.
        gtk_style_context_add_provider_for_display(display, OpaquePointer(provider), guint(GTK_STYLE_PROVIDER_PRIORITY_APPLICATION))
        g_object_unref(provider)
    }
}
