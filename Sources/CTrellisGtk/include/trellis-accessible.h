/* trellis-accessible.h: accessible states and relations Swift cannot set itself
 * (gtk_accessible_update_state and _relation are variadic, and Swift does not import C
 * variadic functions; their GValue forms disagree in GTK 4.8 with the value types GTK reads). */
#ifndef TRELLIS_ACCESSIBLE_H
#define TRELLIS_ACCESSIBLE_H

#include <gtk/gtk.h>

G_BEGIN_DECLS

/**
 * trellis_accessible_set_checked:
 * @accessible: a GtkAccessible.
 * @checked: a GtkAccessibleTristate.
 *
 * Sets GTK_ACCESSIBLE_STATE_CHECKED (AT-SPI: checkable, and checked when TRUE).
 */
void trellis_accessible_set_checked (GtkAccessible *accessible, GtkAccessibleTristate checked);

/**
 * trellis_accessible_set_selected:
 * @accessible: a GtkAccessible.
 * @selected: whether it is the selected one.
 *
 * Sets GTK_ACCESSIBLE_STATE_SELECTED (AT-SPI: selectable, and selected when TRUE).
 */
void trellis_accessible_set_selected (GtkAccessible *accessible, gboolean selected);

/**
 * TrellisRowSelection:
 * @TRELLIS_ROW_SELECTED: "selected" (AT-SPI: selectable, selected). What GTK says of every
 *   row of a Trellis list, since every row is selected to it (TrellisAllSelection).
 * @TRELLIS_ROW_NOT_SELECTED: "not selected" (AT-SPI: selectable). Orca says "not selected"
 *   after the row's name.
 * @TRELLIS_ROW_NOT_SELECTABLE: neither (a section header).
 *
 * What assistive technologies are told of a row's selection.
 */
typedef enum {
  TRELLIS_ROW_SELECTED,
  TRELLIS_ROW_NOT_SELECTED,
  TRELLIS_ROW_NOT_SELECTABLE,
} TrellisRowSelection;

/**
 * trellis_accessible_set_row_selection:
 * @row: GTK's widget of a list row or column-view cell (a GtkListItemWidget).
 * @selection: what to tell of its selection.
 *
 * Sets GTK_ACCESSIBLE_STATE_SELECTED of @row to @selection (TRUE, FALSE, or reset).
 *
 * GTK 4.8 sets that state itself, to its own selection of the row widget, whenever that
 * changes: right after the first bind of a new widget, which is after the bind that calls
 * this. So whenever GTK's selection of the widget changes (its "state-flags-changed" with
 * GTK_STATE_FLAG_SELECTED), and after the first call, @selection is applied again from a
 * high-priority idle, which runs once GTK is done with the widget and before the main loop
 * answers any request from the accessibility bus. A call that changes nothing does nothing
 * (each change is a message on that bus, and a keystroke in a search binds some 200 rows).
 */
void trellis_accessible_set_row_selection (GtkWidget *row, TrellisRowSelection selection);

/**
 * trellis_accessible_set_invalid:
 * @accessible: a GtkAccessible.
 * @message: (nullable): the widget describing why, or NULL to mark @accessible valid again.
 *
 * Marks @accessible invalid (GTK_ACCESSIBLE_STATE_INVALID; GTK 4.8's AT-SPI bridge sends
 * "invalid", later versions "invalid-entry") and described by @message
 * (GTK_ACCESSIBLE_RELATION_DESCRIBED_BY: GTK 4.8 passes on no single-reference relation, such
 * as ERROR_MESSAGE); with NULL, resets both.
 */
void trellis_accessible_set_invalid (GtkAccessible *accessible, GtkWidget *message);

G_END_DECLS

#endif
