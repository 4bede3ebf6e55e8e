import CGtk

// The GTK widget classes the window is built from, each a typed ``Widget`` wrapper: the
// window, its pages and lists hold these (never raw pointers), each checked in debug builds to
// be the GType it names when it is made (`GObjectTypeCheck`). They add nothing else: GTK's C
// functions are called on them with `object.as()` (the typed pointer) or `widget` (the
// `GtkWidget *`), and signals are connected with the checked helpers (`Signals.swift`).
// Internal: app authors get the public wrappers (``Widget``, ``Label``, ``DrawingArea``).

extension Widget {
    /// Wraps a widget a GTK constructor has just returned (`gtk_button_new ()`), taking its
    /// floating reference.
    convenience init(_ new: UnsafeMutablePointer<GtkWidget>!) {
        // Safe: a GTK constructor returns a new widget, never NULL for these types.
        self.init(taking: GObjectPointer(new))
    }
}

/// A `GtkApplicationWindow`.
final class ApplicationWindow: Widget { override class var instanceType: GType { gtk_application_window_get_type() } }
/// A `GtkDialog` (the window's questions: ``ConfirmationDialog``).
final class Dialog: Widget { override class var instanceType: GType { gtk_dialog_get_type() } }
/// A `GtkHeaderBar`.
final class HeaderBar: Widget { override class var instanceType: GType { gtk_header_bar_get_type() } }
/// A `GtkBox`.
final class Box: Widget { override class var instanceType: GType { gtk_box_get_type() } }
/// A `GtkOverlay`.
final class Overlay: Widget { override class var instanceType: GType { gtk_overlay_get_type() } }
/// A `GtkScrolledWindow`.
final class ScrolledWindow: Widget { override class var instanceType: GType { gtk_scrolled_window_get_type() } }
/// A `GtkStack`.
final class Stack: Widget { override class var instanceType: GType { gtk_stack_get_type() } }
/// A `GtkRevealer`.
final class Revealer: Widget { override class var instanceType: GType { gtk_revealer_get_type() } }
/// A `GtkFrame`.
final class Frame: Widget { override class var instanceType: GType { gtk_frame_get_type() } }
/// A `GtkButton` (or a subclass: ``ToggleButton``).
class Button: Widget { override class var instanceType: GType { gtk_button_get_type() } }
/// A `GtkToggleButton`.
final class ToggleButton: Button { override class var instanceType: GType { gtk_toggle_button_get_type() } }
/// A `GtkMenuButton`.
final class MenuButton: Widget { override class var instanceType: GType { gtk_menu_button_get_type() } }
/// A `GtkCheckButton`.
final class CheckButton: Widget { override class var instanceType: GType { gtk_check_button_get_type() } }
/// A `GtkSpinButton`.
final class SpinButton: Widget { override class var instanceType: GType { gtk_spin_button_get_type() } }
/// A `GtkDropDown`.
final class DropDown: Widget { override class var instanceType: GType { gtk_drop_down_get_type() } }
/// A `GtkEntry`.
final class Entry: Widget { override class var instanceType: GType { gtk_entry_get_type() } }
/// A `GtkSearchEntry`.
final class SearchEntry: Widget { override class var instanceType: GType { gtk_search_entry_get_type() } }
/// A `GtkSearchBar`.
final class SearchBar: Widget { override class var instanceType: GType { gtk_search_bar_get_type() } }
/// A `GtkTextView`.
final class TextView: Widget { override class var instanceType: GType { gtk_text_view_get_type() } }
/// A `GtkSpinner`.
final class Spinner: Widget { override class var instanceType: GType { gtk_spinner_get_type() } }
/// A `GtkListView`.
final class ListView: Widget { override class var instanceType: GType { gtk_list_view_get_type() } }
/// A `GtkColumnView`.
final class ColumnView: Widget { override class var instanceType: GType { gtk_column_view_get_type() } }
/// A `GtkListBox`.
final class ListBox: Widget { override class var instanceType: GType { gtk_list_box_get_type() } }
/// A `GtkListBoxRow`.
final class ListBoxRow: Widget { override class var instanceType: GType { gtk_list_box_row_get_type() } }

/// A `GtkTextBuffer` (not a widget: a text view's text).
final class TextBuffer: GObjectReference { override class var instanceType: GType { gtk_text_buffer_get_type() } }
/// A `GSimpleAction`.
final class SimpleAction: GObjectReference { override class var instanceType: GType { g_simple_action_get_type() } }
/// A `GtkSignalListItemFactory`.
final class ListItemFactory: GObjectReference {
    override class var instanceType: GType { gtk_signal_list_item_factory_get_type() }
}
/// A `GtkColumnViewColumn` (not a widget: a column view's column, its title and cells).
final class ColumnViewColumn: GObjectReference {
    override class var instanceType: GType { gtk_column_view_column_get_type() }
}

/// A `GMenu`: a menu model, its items and sections.
final class Menu: GObjectReference {
    override class var instanceType: GType { g_menu_get_type() }

    /// A new, empty menu.
    convenience init() {
        // Safe: g_menu_new returns a new GMenu the caller owns.
        self.init(taking: GObjectPointer(g_menu_new())!)
    }
}
