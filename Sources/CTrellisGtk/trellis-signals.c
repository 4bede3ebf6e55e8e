/* trellis-signals.c */
#include "trellis-signals.h"

void
trellis_list_view_emit_activate (GtkListView *list_view, guint position)
{
  g_return_if_fail (GTK_IS_LIST_VIEW (list_view));
  g_signal_emit_by_name (list_view, "activate", position);
}

void
trellis_column_view_emit_activate (GtkColumnView *column_view, guint position)
{
  g_return_if_fail (GTK_IS_COLUMN_VIEW (column_view));
  g_signal_emit_by_name (column_view, "activate", position);
}

void
trellis_button_emit_clicked (GtkButton *button)
{
  g_return_if_fail (GTK_IS_BUTTON (button));
  g_signal_emit_by_name (button, "clicked");
}

gboolean
trellis_widget_is_button (GtkWidget *widget)
{
  return GTK_IS_BUTTON (widget);
}

void
trellis_entry_emit_activate (GtkEntry *entry)
{
  g_return_if_fail (GTK_IS_ENTRY (entry));
  g_signal_emit_by_name (entry, "activate");
}
