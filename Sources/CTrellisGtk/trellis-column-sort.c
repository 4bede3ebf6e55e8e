/* trellis-column-sort.c */
#include "trellis-column-sort.h"

/* What a probe comparison hands the column sorters as both items. */
typedef struct
{
  gint column;
} TrellisSortProbe;

static int
trellis_column_sorter_probe (gconstpointer a, gconstpointer b, gpointer user_data)
{
  /* Both items are TrellisSortProbes on the stack of trellis_column_view_sorted_column()
   * (whatever order the view's sorter passes them in). */
  ((TrellisSortProbe *) a)->column = GPOINTER_TO_INT (user_data);
  ((TrellisSortProbe *) b)->column = GPOINTER_TO_INT (user_data);
  return -1; /* "smaller": the view's sorter stops at the first column and inverts it if descending */
}

GtkSorter *
trellis_column_sorter_new (guint index)
{
  return GTK_SORTER (gtk_custom_sorter_new (trellis_column_sorter_probe, GINT_TO_POINTER ((gint) index), NULL));
}

gint
trellis_column_view_sorted_column (GtkColumnView *column_view, gboolean *ascending)
{
  TrellisSortProbe first = { -1 };
  TrellisSortProbe second = { -1 };
  GtkSorter *sorter;
  GtkOrdering ordering;

  g_return_val_if_fail (GTK_IS_COLUMN_VIEW (column_view), -1);
  sorter = gtk_column_view_get_sorter (column_view);
  if (sorter == NULL)
    return -1;
  ordering = gtk_sorter_compare (sorter, &first, &second);
  if (first.column < 0)
    return -1;
  if (ascending != NULL)
    *ascending = ordering == GTK_ORDERING_SMALLER;
  return first.column;
}
