/* trellis-clamp.h: a container of one child that is never wider than a maximum width, and is
 * centred when it is given more (GTK 4.8 has nothing like libadwaita's AdwClamp). */
#ifndef TRELLIS_CLAMP_H
#define TRELLIS_CLAMP_H

#include <gtk/gtk.h>

G_BEGIN_DECLS

#define TRELLIS_TYPE_CLAMP (trellis_clamp_get_type ())
G_DECLARE_FINAL_TYPE (TrellisClamp, trellis_clamp, TRELLIS, CLAMP, GtkWidget)

/**
 * trellis_clamp_new:
 * @child: (transfer none): the widget to hold; the clamp becomes its parent.
 * @maximum_width: the widest @child is allocated, in pixels.
 *
 * Returns: (transfer floating): a new clamp holding @child, as wide as its parent gives it;
 * @child gets that width up to @maximum_width (and never less than its own minimum), centred.
 */
GtkWidget *trellis_clamp_new (GtkWidget *child, int maximum_width);

/** trellis_clamp_get_child: Returns: (transfer none): the child. */
GtkWidget *trellis_clamp_get_child (TrellisClamp *self);

G_END_DECLS

#endif
