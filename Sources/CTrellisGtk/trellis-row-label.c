/* trellis-row-label.c */
#include "trellis-row-label.h"

#include <string.h>

struct _TrellisRowLabel
{
  GtkWidget parent_instance;
  char *text;
  /* The text laid out for the width it was drawn at; NULL until it is drawn. */
  PangoLayout *layout;
  int layout_width;
  /* The font's line height and the width of "…": -1 until measured, again after a CSS change. */
  int line_height;
  int ellipsis_width;
  gboolean natural_width_exact;
  /* The text's width, shaped; -1 until asked for (exact natural width only). */
  int natural_width;
};

G_DEFINE_FINAL_TYPE (TrellisRowLabel, trellis_row_label, GTK_TYPE_WIDGET)

static void
trellis_row_label_forget_layout (TrellisRowLabel *self)
{
  g_clear_object (&self->layout);
  self->natural_width = -1;
}

static void
trellis_row_label_ensure_metrics (TrellisRowLabel *self)
{
  PangoLayout *layout;

  if (self->line_height >= 0)
    return;
  layout = gtk_widget_create_pango_layout (GTK_WIDGET (self), "…");
  pango_layout_get_pixel_size (layout, &self->ellipsis_width, &self->line_height);
  g_object_unref (layout);
}

static void
trellis_row_label_measure (GtkWidget *widget, GtkOrientation orientation, int for_size, int *minimum, int *natural,
                           int *minimum_baseline, int *natural_baseline)
{
  TrellisRowLabel *self = TRELLIS_ROW_LABEL (widget);

  (void) for_size;
  trellis_row_label_ensure_metrics (self);
  *minimum_baseline = *natural_baseline = -1;
  if (orientation == GTK_ORIENTATION_VERTICAL)
    {
      *minimum = *natural = self->line_height;
      return;
    }
  *minimum = *natural = self->ellipsis_width;
  if (self->natural_width_exact && self->text[0] != '\0')
    {
      if (self->natural_width < 0)
        {
          PangoLayout *layout = gtk_widget_create_pango_layout (widget, self->text);
          pango_layout_get_pixel_size (layout, &self->natural_width, NULL);
          g_object_unref (layout);
        }
      *natural = MAX (*minimum, self->natural_width);
    }
}

static void
trellis_row_label_snapshot (GtkWidget *widget, GtkSnapshot *snapshot)
{
  TrellisRowLabel *self = TRELLIS_ROW_LABEL (widget);
  int width = gtk_widget_get_width (widget);
  int text_width, text_height;
  GdkRGBA color;

  if (self->text[0] == '\0' || width <= 0)
    return;
  if (self->layout == NULL || self->layout_width != width)
    {
      g_clear_object (&self->layout);
      self->layout = gtk_widget_create_pango_layout (widget, self->text);
      pango_layout_set_single_paragraph_mode (self->layout, TRUE);
      pango_layout_get_pixel_size (self->layout, &text_width, NULL);
      if (text_width > width)
        {
          pango_layout_set_ellipsize (self->layout, PANGO_ELLIPSIZE_END);
          pango_layout_set_width (self->layout, width * PANGO_SCALE);
        }
      self->layout_width = width;
    }
  pango_layout_get_pixel_size (self->layout, &text_width, &text_height);
  /* The colour the style gives the label (GTK 4.8 has no gtk_widget_get_color). */
  gtk_style_context_get_color (gtk_widget_get_style_context (widget), &color);
  gtk_snapshot_save (snapshot);
  /* At the start of the line: the left, or the right in a right-to-left window (as a GtkLabel). */
  gtk_snapshot_translate (snapshot,
                          &GRAPHENE_POINT_INIT (gtk_widget_get_direction (widget) == GTK_TEXT_DIR_RTL
                                                  ? MAX (0, width - text_width) : 0,
                                                (gtk_widget_get_height (widget) - text_height) / 2));
  gtk_snapshot_append_layout (snapshot, self->layout, &color);
  gtk_snapshot_restore (snapshot);
}

static void
trellis_row_label_css_changed (GtkWidget *widget, GtkCssStyleChange *change)
{
  TrellisRowLabel *self = TRELLIS_ROW_LABEL (widget);

  /* The font may have changed (a heading's style class, the theme): measured again. GTK's own
   * handler asks for a new size and a redraw where the change needs them. */
  self->line_height = -1;
  trellis_row_label_forget_layout (self);
  GTK_WIDGET_CLASS (trellis_row_label_parent_class)->css_changed (widget, change);
}

static void
trellis_row_label_direction_changed (GtkWidget *widget, GtkTextDirection previous)
{
  trellis_row_label_forget_layout (TRELLIS_ROW_LABEL (widget));
  GTK_WIDGET_CLASS (trellis_row_label_parent_class)->direction_changed (widget, previous);
  gtk_widget_queue_draw (widget);
}

static void
trellis_row_label_finalize (GObject *object)
{
  TrellisRowLabel *self = TRELLIS_ROW_LABEL (object);

  g_clear_object (&self->layout);
  g_free (self->text);
  G_OBJECT_CLASS (trellis_row_label_parent_class)->finalize (object);
}

static void
trellis_row_label_class_init (TrellisRowLabelClass *klass)
{
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  G_OBJECT_CLASS (klass)->finalize = trellis_row_label_finalize;
  widget_class->measure = trellis_row_label_measure;
  widget_class->snapshot = trellis_row_label_snapshot;
  widget_class->css_changed = trellis_row_label_css_changed;
  widget_class->direction_changed = trellis_row_label_direction_changed;
  /* Styled as a label: a theme's rules for labels (.heading, .dim-label) apply. Not shown to
   * screen readers: the row it is in is read by its accessible label, which says its text
   * (a label too, it cost each new text an accessible property update, 200 per keystroke). */
  gtk_widget_class_set_css_name (widget_class, "label");
  gtk_widget_class_set_accessible_role (widget_class, GTK_ACCESSIBLE_ROLE_NONE);
}

static void
trellis_row_label_init (TrellisRowLabel *self)
{
  self->text = g_strdup ("");
  self->line_height = -1;
  self->natural_width = -1;
}

GtkWidget *
trellis_row_label_new (void)
{
  return g_object_new (TRELLIS_TYPE_ROW_LABEL, NULL);
}

void
trellis_row_label_set_text (TrellisRowLabel *self, const char *text)
{
  g_return_if_fail (TRELLIS_IS_ROW_LABEL (self));
  if (text == NULL)
    text = "";
  if (strcmp (self->text, text) == 0)
    return;
  g_free (self->text);
  self->text = g_strdup (text);
  g_strdelimit (self->text, "\n\r", ' ');
  trellis_row_label_forget_layout (self);
  if (self->natural_width_exact)
    gtk_widget_queue_resize (GTK_WIDGET (self));
  else
    gtk_widget_queue_draw (GTK_WIDGET (self));
}

const char *
trellis_row_label_get_text (TrellisRowLabel *self)
{
  g_return_val_if_fail (TRELLIS_IS_ROW_LABEL (self), NULL);
  return self->text;
}

gboolean
trellis_row_label_is_laid_out (TrellisRowLabel *self)
{
  g_return_val_if_fail (TRELLIS_IS_ROW_LABEL (self), FALSE);
  return self->layout != NULL;
}

void
trellis_row_label_set_natural_width_exact (TrellisRowLabel *self, gboolean exact)
{
  g_return_if_fail (TRELLIS_IS_ROW_LABEL (self));
  if (self->natural_width_exact == !!exact)
    return;
  self->natural_width_exact = !!exact;
  gtk_widget_queue_resize (GTK_WIDGET (self));
}
