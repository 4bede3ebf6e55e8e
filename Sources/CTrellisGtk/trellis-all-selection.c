/* trellis-all-selection.c */
#include "trellis-all-selection.h"

struct _TrellisAllSelection
{
  GObject parent_instance;
  GListModel *model;
};

static void trellis_all_selection_list_model_init (GListModelInterface *iface);
static void trellis_all_selection_selection_model_init (GtkSelectionModelInterface *iface);

G_DEFINE_FINAL_TYPE_WITH_CODE (TrellisAllSelection, trellis_all_selection, G_TYPE_OBJECT,
                               G_IMPLEMENT_INTERFACE (G_TYPE_LIST_MODEL, trellis_all_selection_list_model_init)
                               G_IMPLEMENT_INTERFACE (GTK_TYPE_SELECTION_MODEL, trellis_all_selection_selection_model_init))

static GType
trellis_all_selection_get_item_type (GListModel *list)
{
  return g_list_model_get_item_type (TRELLIS_ALL_SELECTION (list)->model);
}

static guint
trellis_all_selection_get_n_items (GListModel *list)
{
  return g_list_model_get_n_items (TRELLIS_ALL_SELECTION (list)->model);
}

static gpointer
trellis_all_selection_get_item (GListModel *list, guint position)
{
  return g_list_model_get_item (TRELLIS_ALL_SELECTION (list)->model, position);
}

static void
trellis_all_selection_list_model_init (GListModelInterface *iface)
{
  iface->get_item_type = trellis_all_selection_get_item_type;
  iface->get_n_items = trellis_all_selection_get_n_items;
  iface->get_item = trellis_all_selection_get_item;
}

static gboolean
trellis_all_selection_is_selected (GtkSelectionModel *model, guint position)
{
  return position < trellis_all_selection_get_n_items (G_LIST_MODEL (model));
}

static GtkBitset *
trellis_all_selection_get_selection_in_range (GtkSelectionModel *model, guint position, guint n_items)
{
  GtkBitset *result = gtk_bitset_new_empty ();
  guint count = trellis_all_selection_get_n_items (G_LIST_MODEL (model));

  if (position < count)
    gtk_bitset_add_range (result, position, MIN (n_items, count - position));
  return result;
}

static void
trellis_all_selection_selection_model_init (GtkSelectionModelInterface *iface)
{
  iface->is_selected = trellis_all_selection_is_selected;
  iface->get_selection_in_range = trellis_all_selection_get_selection_in_range;
}

static void
trellis_all_selection_items_changed (GListModel *model, guint position, guint removed, guint added,
                                     TrellisAllSelection *self)
{
  (void) model;
  g_list_model_items_changed (G_LIST_MODEL (self), position, removed, added);
}

static void
trellis_all_selection_dispose (GObject *object)
{
  TrellisAllSelection *self = TRELLIS_ALL_SELECTION (object);

  if (self->model != NULL)
    {
      g_signal_handlers_disconnect_by_func (self->model, trellis_all_selection_items_changed, self);
      g_clear_object (&self->model);
    }
  G_OBJECT_CLASS (trellis_all_selection_parent_class)->dispose (object);
}

static void
trellis_all_selection_class_init (TrellisAllSelectionClass *klass)
{
  G_OBJECT_CLASS (klass)->dispose = trellis_all_selection_dispose;
}

static void
trellis_all_selection_init (TrellisAllSelection *self)
{
  (void) self;
}

TrellisAllSelection *
trellis_all_selection_new (GListModel *model)
{
  TrellisAllSelection *self;

  g_return_val_if_fail (G_IS_LIST_MODEL (model), NULL);
  self = g_object_new (TRELLIS_TYPE_ALL_SELECTION, NULL);
  self->model = model;
  g_signal_connect (model, "items-changed", G_CALLBACK (trellis_all_selection_items_changed), self);
  return self;
}
