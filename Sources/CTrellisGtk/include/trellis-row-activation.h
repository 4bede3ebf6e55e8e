/* trellis-row-activation.h: the action `row.activate` on a list row, which GTK 4.8's AT-SPI
 * bridge offers as the row's action, so that a screen reader (or any AT-SPI client) opens the
 * row as a click does. GTK offers no action of its own on a GtkListView row or a
 * GtkListBoxRow. In C: GTK's list view keeps about 200 rows and gives each one the action when
 * it is first bound, and a Swift closure per row made that a third of its cost. */
#ifndef TRELLIS_ROW_ACTIVATION_H
#define TRELLIS_ROW_ACTIVATION_H

#include <gtk/gtk.h>

G_BEGIN_DECLS

/**
 * trellis_row_offer_activation:
 * @row: a list row: a GtkListView's row widget or a GtkListBoxRow.
 *
 * Gives @row the action `row.activate` (once: later calls do nothing), which activates the
 * row as Enter does (gtk_widget_activate): a list view's row makes its list view emit
 * `activate` with the row's position, unless the row is not activatable; a list box's row
 * makes its list box emit `row-activated`. The row owns the action; the action holds the row
 * weakly.
 */
void trellis_row_offer_activation (GtkWidget *row);

G_END_DECLS

#endif
