/* trellis-row-item.h: the light GObject a TrellisListModel hands to GTK for one row.
 *
 * It carries an opaque payload owned by the Swift side (a retained Swift object); the
 * payload's destroy notify runs when the item is finalized.
 */
#ifndef TRELLIS_ROW_ITEM_H
#define TRELLIS_ROW_ITEM_H

#include <glib-object.h>

G_BEGIN_DECLS

#define TRELLIS_TYPE_ROW_ITEM (trellis_row_item_get_type ())
G_DECLARE_FINAL_TYPE (TrellisRowItem, trellis_row_item, TRELLIS, ROW_ITEM, GObject)

/**
 * trellis_row_item_new:
 * @position: the row's position when the item was made (informational).
 * @payload: (transfer full): the Swift-side row data.
 * @payload_destroy: (nullable): releases @payload when the item is finalized.
 *
 * Returns: (transfer full): a new row item.
 */
TrellisRowItem *trellis_row_item_new (guint position, gpointer payload, GDestroyNotify payload_destroy);

/** trellis_row_item_get_payload: Returns: (transfer none): the payload given at construction. */
gpointer trellis_row_item_get_payload (TrellisRowItem *self);

/** trellis_row_item_get_position: Returns: the position given at construction. */
guint trellis_row_item_get_position (TrellisRowItem *self);

/**
 * trellis_row_item_replace_payload:
 *
 * Makes @self the item of the row now at @position, carrying @payload (owned from now on);
 * the previous payload is destroyed. For an item offered again at its position, so that GTK
 * keeps its widget (see trellis_list_model_items_changed_reusing()).
 */
void trellis_row_item_replace_payload (TrellisRowItem *self, guint position, gpointer payload);

/** trellis_row_item_live_count: Returns: how many row items exist now (leak tests). */
gint trellis_row_item_live_count (void);

G_END_DECLS

#endif
