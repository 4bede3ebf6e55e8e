/* trellis-list-model.h: a GListModel whose size and items come on demand from Swift.
 *
 * No row is copied into GTK: get_n_items asks the data source for its count, and get_item
 * asks it for one row's payload, wrapped in a fresh TrellisRowItem. The Swift side calls
 * trellis_list_model_items_changed() after its data changed (never from inside get_item).
 */
#ifndef TRELLIS_LIST_MODEL_H
#define TRELLIS_LIST_MODEL_H

#include <gio/gio.h>
#include "trellis-row-item.h"

G_BEGIN_DECLS

/** TrellisListModelCountFunc: returns the number of rows now. */
typedef guint (*TrellisListModelCountFunc) (gpointer user_data);

/**
 * TrellisListModelItemFunc:
 * Returns: (transfer full) (nullable): the payload for the row at @position, to be released
 * with the model's payload destroy notify.
 */
typedef gpointer (*TrellisListModelItemFunc) (guint position, gpointer user_data);

#define TRELLIS_TYPE_LIST_MODEL (trellis_list_model_get_type ())
G_DECLARE_FINAL_TYPE (TrellisListModel, trellis_list_model, TRELLIS, LIST_MODEL, GObject)

/**
 * trellis_list_model_new:
 * @count_func: how many rows there are.
 * @item_func: the payload of one row.
 * @payload_destroy: releases a payload returned by @item_func.
 * @user_data: (transfer full): passed to both functions.
 * @user_data_destroy: (nullable): releases @user_data when the model is finalized.
 *
 * Returns: (transfer full): a new model whose item type is TrellisRowItem.
 */
TrellisListModel *trellis_list_model_new (TrellisListModelCountFunc count_func,
                                          TrellisListModelItemFunc item_func,
                                          GDestroyNotify payload_destroy,
                                          gpointer user_data,
                                          GDestroyNotify user_data_destroy);

/**
 * trellis_list_model_items_changed:
 *
 * Emits GListModel::items-changed. Call after the data source changed.
 */
void trellis_list_model_items_changed (TrellisListModel *self, guint position, guint removed, guint added);

/**
 * trellis_list_model_items_changed_reusing:
 * @items: (array length=n_items): the items GTK holds at positions @position … @position +
 *   @n_items - 1, before the change
 *
 * Emits GListModel::items-changed (@position, @n_items, @n_items) for rows replaced in
 * place, answering get_item at those positions, during the emission, with the same item
 * objects carrying the new rows' payloads. GTK 4.8 keeps a row's widget across a change only
 * for the very same item, so the widgets stay and only their contents change: a search that
 * replaces the top rows of a long list rebinds its ~200 row widgets instead of destroying
 * and building them again.
 */
void trellis_list_model_items_changed_reusing (TrellisListModel *self, guint position,
                                               TrellisRowItem **items, guint n_items);

/** trellis_list_model_as_list_model: Returns: (transfer none): @self as a GListModel. */
GListModel *trellis_list_model_as_list_model (TrellisListModel *self);

G_END_DECLS

#endif
