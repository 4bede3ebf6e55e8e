/* trellis-column-sort.c */
#include "trellis-column-sort.h"

/* What a probe comparison hands the column sorters as both items. The magic number tells
 * a probe from a real item (a GObject, whose first word is its class pointer), should
 * anything ever sort real items with these sorters: those are compared as equal, untouched. */
#define TRELLIS_SORT_PROBE_MAGIC 0x50524f42u /* "PROB" */

typedef struct
{
  guint32 magic;
  gint column;
} TrellisSortProbe;

static int
trellis_column_sorter_probe (gconstpointer a, gconstpointer b, gpointer user_data)
{
  /* From trellis_column_view_sorted_column(), both items are TrellisSortProbes on its
   * stack (in whatever order the view's sorter passes them). */
  TrellisSortProbe *first = (TrellisSortProbe *) a;
  TrellisSortProbe *second = (TrellisSortProbe *) b;
  if (first->magic != TRELLIS_SORT_PROBE_MAGIC || second->magic != TRELLIS_SORT_PROBE_MAGIC)
    return 0;
  first->column = GPOINTER_TO_INT (user_data);
  second->column = GPOINTER_TO_INT (user_data);
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
  TrellisSortProbe first = { TRELLIS_SORT_PROBE_MAGIC, -1 };
  TrellisSortProbe second = { TRELLIS_SORT_PROBE_MAGIC, -1 };
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
