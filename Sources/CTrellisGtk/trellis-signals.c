/* trellis-signals.c */
#include "trellis-signals.h"

void
trellis_list_view_emit_activate (GtkListView *list_view, guint position)
{
  g_return_if_fail (GTK_IS_LIST_VIEW (list_view));
  g_signal_emit_by_name (list_view, "activate", position);
}
