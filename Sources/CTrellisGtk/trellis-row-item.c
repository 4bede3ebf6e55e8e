/* trellis-row-item.c */
#include "trellis-row-item.h"

struct _TrellisRowItem
{
  GObject parent_instance;
  guint position;
  gpointer payload;
  GDestroyNotify payload_destroy;
};

G_DEFINE_FINAL_TYPE (TrellisRowItem, trellis_row_item, G_TYPE_OBJECT)

static gint live_count = 0;

static void
trellis_row_item_finalize (GObject *object)
{
  TrellisRowItem *self = TRELLIS_ROW_ITEM (object);

  if (self->payload_destroy != NULL && self->payload != NULL)
    self->payload_destroy (self->payload);
  self->payload = NULL;
  g_atomic_int_add (&live_count, -1);

  G_OBJECT_CLASS (trellis_row_item_parent_class)->finalize (object);
}

static void
trellis_row_item_class_init (TrellisRowItemClass *klass)
{
  G_OBJECT_CLASS (klass)->finalize = trellis_row_item_finalize;
}

static void
trellis_row_item_init (TrellisRowItem *self)
{
  (void) self;
  g_atomic_int_add (&live_count, 1);
}

TrellisRowItem *
trellis_row_item_new (guint position, gpointer payload, GDestroyNotify payload_destroy)
{
  TrellisRowItem *self = g_object_new (TRELLIS_TYPE_ROW_ITEM, NULL);

  self->position = position;
  self->payload = payload;
  self->payload_destroy = payload_destroy;
  return self;
}

gpointer
trellis_row_item_get_payload (TrellisRowItem *self)
{
  g_return_val_if_fail (TRELLIS_IS_ROW_ITEM (self), NULL);
  return self->payload;
}

guint
trellis_row_item_get_position (TrellisRowItem *self)
{
  g_return_val_if_fail (TRELLIS_IS_ROW_ITEM (self), 0);
  return self->position;
}

void
trellis_row_item_replace_payload (TrellisRowItem *self, guint position, gpointer payload)
{
  gpointer previous;

  g_return_if_fail (TRELLIS_IS_ROW_ITEM (self));
  previous = self->payload;
  self->payload = payload;
  self->position = position;
  if (self->payload_destroy != NULL && previous != NULL)
    self->payload_destroy (previous);
}

gint
trellis_row_item_live_count (void)
{
  return g_atomic_int_get (&live_count);
}
