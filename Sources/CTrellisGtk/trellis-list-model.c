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

GListModel *
trellis_list_model_as_list_model (TrellisListModel *self)
{
  g_return_val_if_fail (TRELLIS_IS_LIST_MODEL (self), NULL);
  return G_LIST_MODEL (self);
}
