/* trellis-clamp.c */
#include "trellis-clamp.h"

struct _TrellisClamp
{
  GtkWidget parent_instance;
  GtkWidget *child;
  int maximum_width;
};

G_DEFINE_FINAL_TYPE (TrellisClamp, trellis_clamp, GTK_TYPE_WIDGET)

static void
trellis_clamp_dispose (GObject *object)
{
  TrellisClamp *self = TRELLIS_CLAMP (object);

  g_clear_pointer (&self->child, gtk_widget_unparent);
  G_OBJECT_CLASS (trellis_clamp_parent_class)->dispose (object);
}

/* The width the child gets out of @available: at most the maximum, at least its minimum. */
static int
trellis_clamp_child_width (TrellisClamp *self, int available)
{
  int minimum = 0;

  gtk_widget_measure (self->child, GTK_ORIENTATION_HORIZONTAL, -1, &minimum, NULL, NULL, NULL);
  return MAX (minimum, MIN (available, self->maximum_width));
}

static void
trellis_clamp_measure (GtkWidget *widget, GtkOrientation orientation, int for_size, int *minimum, int *natural,
                       int *minimum_baseline, int *natural_baseline)
{
  TrellisClamp *self = TRELLIS_CLAMP (widget);

  *minimum = *natural = 0;
  *minimum_baseline = *natural_baseline = -1;
  if (self->child == NULL || !gtk_widget_should_layout (self->child))
    return;
  if (orientation == GTK_ORIENTATION_HORIZONTAL)
    {
      gtk_widget_measure (self->child, orientation, for_size, minimum, natural, NULL, NULL);
      *natural = MAX (*minimum, MIN (*natural, self->maximum_width));
    }
  else
    {
      int width = for_size < 0 ? -1 : trellis_clamp_child_width (self, for_size);
      gtk_widget_measure (self->child, orientation, width, minimum, natural, minimum_baseline, natural_baseline);
    }
}

static void
trellis_clamp_size_allocate (GtkWidget *widget, int width, int height, int baseline)
{
  TrellisClamp *self = TRELLIS_CLAMP (widget);
  GtkAllocation allocation;

  if (self->child == NULL || !gtk_widget_should_layout (self->child))
    return;
  allocation.width = trellis_clamp_child_width (self, width);
  allocation.x = MAX (0, (width - allocation.width) / 2);
  allocation.y = 0;
  allocation.height = height;
  gtk_widget_size_allocate (self->child, &allocation, baseline);
}

static GtkSizeRequestMode
trellis_clamp_get_request_mode (GtkWidget *widget)
{
  TrellisClamp *self = TRELLIS_CLAMP (widget);

  return self->child != NULL ? gtk_widget_get_request_mode (self->child) : GTK_SIZE_REQUEST_CONSTANT_SIZE;
}

static void
trellis_clamp_class_init (TrellisClampClass *klass)
{
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  G_OBJECT_CLASS (klass)->dispose = trellis_clamp_dispose;
  widget_class->measure = trellis_clamp_measure;
  widget_class->size_allocate = trellis_clamp_size_allocate;
  widget_class->get_request_mode = trellis_clamp_get_request_mode;
  /* Read as a plain grouping, as a GtkBox is: the child holds what is interactive. */
  gtk_widget_class_set_accessible_role (widget_class, GTK_ACCESSIBLE_ROLE_GROUP);
  gtk_widget_class_set_css_name (widget_class, "clamp");
}

static void
trellis_clamp_init (TrellisClamp *self)
{
  self->maximum_width = G_MAXINT;
}

GtkWidget *
trellis_clamp_new (GtkWidget *child, int maximum_width)
{
  TrellisClamp *self = g_object_new (TRELLIS_TYPE_CLAMP, NULL);

  self->maximum_width = maximum_width;
  self->child = child;
  gtk_widget_set_parent (child, GTK_WIDGET (self));
  return GTK_WIDGET (self);
}

GtkWidget *
trellis_clamp_get_child (TrellisClamp *self)
{
  return self->child;
}
