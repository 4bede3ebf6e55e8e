/* trellis-column-sort.h: which column a GtkColumnView is sorted by, in GTK 4.8.
 *
 * A GtkColumnView sorts nothing itself: clicking a header of a column that has a sorter
 * updates the view's GtkColumnViewSorter, which a GtkSortListModel would use. Trellis has
 * no sort model (the Swift source sorts, in SQL for the store), so it needs to know the
 * primary column and direction; gtk_column_view_sorter_get_primary_sort_column() only
 * exists from GTK 4.10. The column sorters made here answer a probe instead: comparing
 * two probes with the view's sorter runs the primary column's sorter only, which writes
 * its column index into the probes, and the view's sorter inverts the result when the
 * column is sorted descending.
 */
#ifndef TRELLIS_COLUMN_SORT_H
#define TRELLIS_COLUMN_SORT_H

#include <gtk/gtk.h>

G_BEGIN_DECLS

/**
 * trellis_column_sorter_new:
 * @index: the column's index, reported by trellis_column_view_sorted_column().
 *
 * A sorter for gtk_column_view_column_set_sorter(): it makes the column's header
 * clickable. It must not be used to sort real items (it only answers probes).
 *
 * Returns: (transfer full): a new sorter.
 */
GtkSorter *trellis_column_sorter_new (guint index);

/**
 * trellis_column_view_sorted_column:
 * @column_view: a GtkColumnView whose sortable columns have trellis_column_sorter_new() sorters.
 * @ascending: (out): set to whether the column is sorted ascending.
 *
 * Returns: the index of the column the view is sorted by, or -1 when it is not sorted.
 */
gint trellis_column_view_sorted_column (GtkColumnView *column_view, gboolean *ascending);

G_END_DECLS

#endif
