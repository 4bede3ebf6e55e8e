/* trellis-signals.h: signal emissions Swift cannot write itself (g_signal_emit_by_name is
 * variadic, and Swift does not import C variadic functions). */
#ifndef TRELLIS_SIGNALS_H
#define TRELLIS_SIGNALS_H

#include <gtk/gtk.h>

G_BEGIN_DECLS

/**
 * trellis_list_view_emit_activate:
 * @list_view: a GtkListView.
 * @position: the row to activate.
 *
 * Emits GtkListView::activate for @position, exactly as a click or Enter on that row does.
 */
void trellis_list_view_emit_activate (GtkListView *list_view, guint position);

/**
 * trellis_column_view_emit_activate:
 * @column_view: a GtkColumnView.
 * @position: the row to activate.
 *
 * Emits GtkColumnView::activate for @position, exactly as a click or Enter on that row does.
 */
void trellis_column_view_emit_activate (GtkColumnView *column_view, guint position);

/**
 * trellis_button_emit_clicked:
 * @button: a GtkButton.
 *
 * Emits GtkButton::clicked at once, as a completed click does (gtk_widget_activate() on a
 * GtkButton only emits it after a press animation of 250 ms).
 */
void trellis_button_emit_clicked (GtkButton *button);

/**
 * trellis_entry_emit_activate:
 * @entry: a GtkEntry.
 *
 * Emits GtkEntry::activate, as Enter in the entry does.
 */
void trellis_entry_emit_activate (GtkEntry *entry);

/**
 * trellis_widget_is_button:
 * @widget: a widget
 *
 * GTK_IS_BUTTON(), a macro Swift cannot call.
 *
 * Returns: whether @widget is a #GtkButton (or a subclass).
 */
gboolean trellis_widget_is_button (GtkWidget *widget);

G_END_DECLS

#endif
