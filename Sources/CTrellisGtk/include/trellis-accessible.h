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
