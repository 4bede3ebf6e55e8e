/* trellis-confirmation-dialog.h: a question with Cancel and a confirming button.
 * gtk_message_dialog_new() is variadic (a printf format), and Swift does not import C
 * variadic functions. */
#ifndef TRELLIS_CONFIRMATION_DIALOG_H
#define TRELLIS_CONFIRMATION_DIALOG_H

#include <gtk/gtk.h>

G_BEGIN_DECLS

/**
 * trellis_confirmation_dialog_new:
 * @parent: the window the dialog is modal for.
 * @title: the question, shown in bold (the dialog's accessible name).
 * @details: what the person needs to know to answer, wrapped, never ellipsized.
 * @cancel_label: the label of the button answering %GTK_RESPONSE_CANCEL (also Escape).
 * @confirm_label: the label of the button answering %GTK_RESPONSE_ACCEPT.
 *
 * A modal GtkMessageDialog (an alert dialog for accessibility) asking @title, destroyed with @parent. Cancel is the default
 * response (Enter), so that an accidental key press decides nothing; the caller connects
 * GtkDialog::response and destroys the dialog there.
 *
 * Returns: (transfer none): the new dialog, not shown yet.
 */
GtkWidget *trellis_confirmation_dialog_new (GtkWindow  *parent,
                                            const char *title,
                                            const char *details,
                                            const char *cancel_label,
                                            const char *confirm_label);

G_END_DECLS

#endif
