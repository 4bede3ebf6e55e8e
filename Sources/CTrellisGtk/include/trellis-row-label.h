/* trellis-row-label.h: a one-line label for list rows that lays out its text only when it is
 * drawn.
 *
 * GTK 4.8's list view keeps about 200 row widgets around the 20–30 on screen, measures every
 * one of them whenever a row changes, and a search sets a new text on each: a GtkLabel shapes
 * each new text when it is measured (a third of a million-row keystroke, Benchmarks.md). This
 * label's height is the font's line height and its minimum width that of "…", both known
 * without its text; so a new text only asks for a redraw, and the text is shaped when the
 * label is drawn, which GTK does for the rows on screen only (it unmaps the others or gives
 * them no size). */
#ifndef TRELLIS_ROW_LABEL_H
#define TRELLIS_ROW_LABEL_H

#include <gtk/gtk.h>

G_BEGIN_DECLS

#define TRELLIS_TYPE_ROW_LABEL (trellis_row_label_get_type ())
G_DECLARE_FINAL_TYPE (TrellisRowLabel, trellis_row_label, TRELLIS, ROW_LABEL, GtkWidget)

/** trellis_row_label_new: Returns: (transfer floating): an empty label, text aligned to its start, ellipsized at its end. */
GtkWidget *trellis_row_label_new (void);

/**
 * trellis_row_label_set_text:
 * @text: (transfer none): the text, one line (a line break is shown as a space).
 *
 * Sets the text and redraws it (no new size is asked for). Screen readers do not see the label:
 * the row it is in carries the text as its accessible label.
 */
void trellis_row_label_set_text (TrellisRowLabel *self, const char *text);

/** trellis_row_label_get_text: Returns: (transfer none): the text. */
const char *trellis_row_label_get_text (TrellisRowLabel *self);

/**
 * trellis_row_label_is_laid_out:
 *
 * Returns: whether the text is laid out: the label was drawn since its text was set (a label
 * with no text never is).
 */
gboolean trellis_row_label_is_laid_out (TrellisRowLabel *self);

/**
 * trellis_row_label_set_natural_width_exact:
 *
 * With @exact, the label's natural width is its text's (shaped when measured), as a GtkLabel's,
 * for a row where it shares the width with other widgets (a detail label); without (the
 * default), the natural width is the minimum, so that measuring never shapes the text.
 */
void trellis_row_label_set_natural_width_exact (TrellisRowLabel *self, gboolean exact);

G_END_DECLS

#endif
