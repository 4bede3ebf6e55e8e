/* trellis-list-model.c */
#include "trellis-list-model.h"

struct _TrellisListModel
{
  GObject parent_instance;
  TrellisListModelCountFunc count_func;
  TrellisListModelItemFunc item_func;
  GDestroyNotify payload_destroy;
  gpointer user_data;
  GDestroyNotify user_data_destroy;
  /* During trellis_list_model_items_changed_reusing(): the items offered again, from
   * reuse_position on (borrowed: GTK holds them). NULL otherwise. */
  TrellisRowItem **reuse_items;
  guint reuse_position;
  guint reuse_count;
};

static void trellis_list_model_iface_init (GListModelInterface *iface);

G_DEFINE_FINAL_TYPE_WITH_CODE (TrellisListModel, trellis_list_model, G_TYPE_OBJECT,
                               G_IMPLEMENT_INTERFACE (G_TYPE_LIST_MODEL, trellis_list_model_iface_init))

static GType
trellis_list_model_get_item_type (GListModel *list)
{
  (void) list;
  return TRELLIS_TYPE_ROW_ITEM;
}

static guint
trellis_list_model_get_n_items (GListModel *list)
{
  TrellisListModel *self = TRELLIS_LIST_MODEL (list);

  if (self->count_func == NULL)
    return 0;
  return self->count_func (self->user_data);
}

static gpointer
trellis_list_model_get_item (GListModel *list, guint position)
{
  TrellisListModel *self = TRELLIS_LIST_MODEL (list);
  gpointer payload;

  if (self->item_func == NULL || position >= trellis_list_model_get_n_items (list))
    return NULL;

  payload = self->item_func (position, self->user_data);
  if (payload == NULL)
    return NULL;
  if (self->reuse_items != NULL && position >= self->reuse_position
      && position - self->reuse_position < self->reuse_count)
    {
      TrellisRowItem *item = self->reuse_items[position - self->reuse_position];
      trellis_row_item_replace_payload (item, position, payload);
      return g_object_ref (item);
    }
  return trellis_row_item_new (position, payload, self->payload_destroy);
}

static void
trellis_list_model_iface_init (GListModelInterface *iface)
{
  iface->get_item_type = trellis_list_model_get_item_type;
  iface->get_n_items = trellis_list_model_get_n_items;
  iface->get_item = trellis_list_model_get_item;
}

static void
trellis_list_model_finalize (GObject *object)
{
  TrellisListModel *self = TRELLIS_LIST_MODEL (object);

  if (self->user_data_destroy != NULL && self->user_data != NULL)
    self->user_data_destroy (self->user_data);
  self->user_data = NULL;

  G_OBJECT_CLASS (trellis_list_model_parent_class)->finalize (object);
}

static void
trellis_list_model_class_init (TrellisListModelClass *klass)
{
  G_OBJECT_CLASS (klass)->finalize = trellis_list_model_finalize;
}

static void
trellis_list_model_init (TrellisListModel *self)
{
  (void) self;
}

TrellisListModel *
trellis_list_model_new (TrellisListModelCountFunc count_func,
                        TrellisListModelItemFunc item_func,
                        GDestroyNotify payload_destroy,
                        gpointer user_data,
                        GDestroyNotify user_data_destroy)
{
  TrellisListModel *self = g_object_new (TRELLIS_TYPE_LIST_MODEL, NULL);

  self->count_func = count_func;
  self->item_func = item_func;
  self->payload_destroy = payload_destroy;
  self->user_data = user_data;
  self->user_data_destroy = user_data_destroy;
  return self;
}

void
trellis_list_model_items_changed (TrellisListModel *self, guint position, guint removed, guint added)
{
  g_return_if_fail (TRELLIS_IS_LIST_MODEL (self));
  g_list_model_items_changed (G_LIST_MODEL (self), position, removed, added);
}

void
trellis_list_model_items_changed_reusing (TrellisListModel *self, guint position,
                                           TrellisRowItem **items, guint n_items)
{
  guint i;

  g_return_if_fail (TRELLIS_IS_LIST_MODEL (self));
  g_return_if_fail (self->reuse_items == NULL);
  /* Keep each item alive through the emission: GTK drops its own reference when it
   * releases the row, before it asks for the new one. */
  for (i = 0; i < n_items; i++)
    g_object_ref (items[i]);
  self->reuse_items = items;
  self->reuse_position = position;
  self->reuse_count = n_items;
  g_list_model_items_changed (G_LIST_MODEL (self), position, n_items, n_items);
  self->reuse_items = NULL;
  for (i = 0; i < n_items; i++)
    g_object_unref (items[i]);
}

GListModel *
trellis_list_model_as_list_model (TrellisListModel *self)
{
  g_return_val_if_fail (TRELLIS_IS_LIST_MODEL (self), NULL);
  return G_LIST_MODEL (self);
}
