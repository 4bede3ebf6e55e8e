/* trellis-row-activation.c */
#include "trellis-row-activation.h"

#define OFFERED_KEY "trellis-row-activation"

static void
row_activation_activated (GSimpleAction *action,
                          GVariant      *parameter,
                          gpointer       user_data)
{
  (void) action;
  (void) parameter;
  /* The row is alive: g_signal_connect_object disconnects this handler when it is finalized. */
  gtk_widget_activate (GTK_WIDGET (user_data));
}

void
trellis_row_offer_activation (GtkWidget *row)
{
  GSimpleActionGroup *group;
  GSimpleAction *action;

  g_return_if_fail (GTK_IS_WIDGET (row));
  if (g_object_get_data (G_OBJECT (row), OFFERED_KEY) != NULL)
    return;
  g_object_set_data (G_OBJECT (row), OFFERED_KEY, GINT_TO_POINTER (1));

  group = g_simple_action_group_new ();
  action = g_simple_action_new ("activate", NULL);
  g_signal_connect_object (action, "activate", G_CALLBACK (row_activation_activated), row, 0);
  g_action_map_add_action (G_ACTION_MAP (group), G_ACTION (action));
  g_object_unref (action);
  gtk_widget_insert_action_group (row, "row", G_ACTION_GROUP (group));
  g_object_unref (group);
}
