/* trellis-accessible.c */
#include "trellis-accessible.h"

void
trellis_accessible_set_checked (GtkAccessible *accessible, GtkAccessibleTristate checked)
{
  g_return_if_fail (GTK_IS_ACCESSIBLE (accessible));
  gtk_accessible_update_state (accessible, GTK_ACCESSIBLE_STATE_CHECKED, checked, -1);
}

void
trellis_accessible_set_selected (GtkAccessible *accessible, gboolean selected)
{
  g_return_if_fail (GTK_IS_ACCESSIBLE (accessible));
  gtk_accessible_update_state (accessible, GTK_ACCESSIBLE_STATE_SELECTED, selected, -1);
}

void
trellis_accessible_set_invalid (GtkAccessible *accessible, GtkWidget *message)
{
  g_return_if_fail (GTK_IS_ACCESSIBLE (accessible));
  if (message == NULL)
    {
      gtk_accessible_reset_state (accessible, GTK_ACCESSIBLE_STATE_INVALID);
      gtk_accessible_reset_relation (accessible, GTK_ACCESSIBLE_RELATION_DESCRIBED_BY);
      return;
    }
  gtk_accessible_update_state (accessible, GTK_ACCESSIBLE_STATE_INVALID, GTK_ACCESSIBLE_INVALID_TRUE, -1);
  gtk_accessible_update_relation (accessible, GTK_ACCESSIBLE_RELATION_DESCRIBED_BY, message, NULL, -1);
}
