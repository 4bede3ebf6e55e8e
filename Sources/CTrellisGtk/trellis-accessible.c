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

/* What the table tells of a row widget's selection, as TrellisRowSelection + 1 (0: never
 * told, before its first bind). */
#define ROW_SELECTION_KEY "trellis-row-selection"

static void
apply_row_selection (GtkWidget *row, TrellisRowSelection selection)
{
  if (selection == TRELLIS_ROW_NOT_SELECTABLE)
    gtk_accessible_reset_state (GTK_ACCESSIBLE (row), GTK_ACCESSIBLE_STATE_SELECTED);
  else
    gtk_accessible_update_state (GTK_ACCESSIBLE (row), GTK_ACCESSIBLE_STATE_SELECTED,
                                 selection == TRELLIS_ROW_SELECTED, -1);
}

static gboolean
settle_row_selection (gpointer data)
{
  GtkWidget *row = data;
  int told = GPOINTER_TO_INT (g_object_get_data (G_OBJECT (row), ROW_SELECTION_KEY));
  if (told > 0)
    apply_row_selection (row, (TrellisRowSelection) (told - 1));
  return G_SOURCE_REMOVE;
}

/* The idle holds a reference: the widget outlives it even if its list is torn down first. */
static void
settle_row_selection_later (GtkWidget *row)
{
  g_idle_add_full (G_PRIORITY_HIGH, settle_row_selection, g_object_ref (row), g_object_unref);
}

/* GTK has just changed its own selection of the row widget, and sets the accessible state to
 * it right after this signal: the table's is applied again once GTK is done.
 * GtkWidget::state-flags-changed: void (GtkWidget *, GtkStateFlags previous, gpointer); checked
 * against g_signal_query before it is connected (row_state_flags_signal_matches). */
static void
row_state_flags_changed (GtkWidget *row, GtkStateFlags previous, gpointer data)
{
  (void) data;
  if (((previous ^ gtk_widget_get_state_flags (row)) & GTK_STATE_FLAG_SELECTED) != 0)
    settle_row_selection_later (row);
}

/* Whether GtkWidget::state-flags-changed has the parameters row_state_flags_changed takes, as
 * the Swift side's Signals checks each connection: a mismatch is logged and not connected. */
static gboolean
row_state_flags_signal_matches (void)
{
  static int matches = -1;
  if (matches < 0)
    {
      GSignalQuery query;
      g_signal_query (g_signal_lookup ("state-flags-changed", GTK_TYPE_WIDGET), &query);
      matches = query.signal_id != 0 && query.return_type == G_TYPE_NONE && query.n_params == 1
                && (query.param_types[0] & ~G_SIGNAL_TYPE_STATIC_SCOPE) == GTK_TYPE_STATE_FLAGS;
      if (!matches)
        g_critical ("GtkWidget::state-flags-changed does not take (GtkStateFlags): row selection states are not reapplied");
    }
  return matches;
}

void
trellis_accessible_set_row_selection (GtkWidget *row, TrellisRowSelection selection)
{
  g_return_if_fail (GTK_IS_WIDGET (row));
  int told = GPOINTER_TO_INT (g_object_get_data (G_OBJECT (row), ROW_SELECTION_KEY));
  if (told == (int) selection + 1)
    return;
  g_object_set_data (G_OBJECT (row), ROW_SELECTION_KEY, GINT_TO_POINTER ((int) selection + 1));
  apply_row_selection (row, selection);
  if (told == 0)
    {
      if (row_state_flags_signal_matches ())
        g_signal_connect (row, "state-flags-changed", G_CALLBACK (row_state_flags_changed), NULL);
      settle_row_selection_later (row);
    }
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
