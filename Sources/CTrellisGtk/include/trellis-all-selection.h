/* trellis-all-selection.h: a GtkSelectionModel over a list model in which every item is
 * selected, always.
 *
 * For the lists that have no selection of their own (what a person ticks is shown by check
 * boxes). GTK 4.8 focuses a row only when it is selectable, and exposes the rows of a list view
 * to screen readers as selectable: over GtkNoSelection every row is "not selected", which Orca
 * said after each one; over a selection that follows the focus, GTK marks the row selected
 * only after it moved the focus, and Orca still said it about half the time. Here no row is
 * ever unselected, so none is announced as such. Selecting and unselecting do nothing.
 */
#ifndef TRELLIS_ALL_SELECTION_H
#define TRELLIS_ALL_SELECTION_H

#include <gtk/gtk.h>

G_BEGIN_DECLS

#define TRELLIS_TYPE_ALL_SELECTION (trellis_all_selection_get_type ())
G_DECLARE_FINAL_TYPE (TrellisAllSelection, trellis_all_selection, TRELLIS, ALL_SELECTION, GObject)

/**
 * trellis_all_selection_new:
 * @model: (transfer full): the list model, whose items and changes it passes on.
 *
 * Returns: (transfer full): a new selection model in which every item of @model is selected.
 */
TrellisAllSelection *trellis_all_selection_new (GListModel *model);

G_END_DECLS

#endif
