/* trellis-confirmation-dialog.c */
#include "trellis-confirmation-dialog.h"

/* GTK 4.8 names a dialog's button twice over ("Cancel Cancel"): by its mnemonic label, which
 * marks the button labelled by it, and by that label's text again. The name is set once, as
 * it reads. */
static void
name_button (GtkWidget *button, const char *label)
{
  gtk_accessible_reset_relation (GTK_ACCESSIBLE (button), GTK_ACCESSIBLE_RELATION_LABELLED_BY);
  gtk_accessible_update_property (GTK_ACCESSIBLE (button), GTK_ACCESSIBLE_PROPERTY_LABEL, label, -1);
}

GtkWidget *
trellis_confirmation_dialog_new (GtkWindow  *parent,
                                 const char *title,
                                 const char *details,
                                 const char *cancel_label,
                                 const char *confirm_label)
{
  GtkWidget *dialog;

  g_return_val_if_fail (title != NULL && details != NULL, NULL);
  /* An alert dialog, as ARIA names a question that interrupts: the role is fixed at
   * construction, so gtk_message_dialog_new() cannot set it. (GTK 4.8 still shows it to AT-SPI
   * as a dialog.) */
  dialog = g_object_new (GTK_TYPE_MESSAGE_DIALOG,
                         "accessible-role", GTK_ACCESSIBLE_ROLE_ALERT_DIALOG,
                         "use-header-bar", FALSE,
                         "message-type", GTK_MESSAGE_QUESTION,
                         "buttons", GTK_BUTTONS_NONE,
                         "text", title,
                         "secondary-text", details,
                         "transient-for", parent,
                         "modal", TRUE,
                         "destroy-with-parent", TRUE,
                         NULL);
  /* The window's name, as a screen reader announces it (a message dialog has no title), and
   * its description, read with it: without one, Orca 43 said only "Let “Asker” run? dialog"
   * and the focused button, never what was asked (OrcaWindowTests). */
  gtk_window_set_title (GTK_WINDOW (dialog), title);
  gtk_accessible_update_property (GTK_ACCESSIBLE (dialog), GTK_ACCESSIBLE_PROPERTY_DESCRIPTION, details, -1);
  name_button (gtk_dialog_add_button (GTK_DIALOG (dialog), cancel_label, GTK_RESPONSE_CANCEL), cancel_label);
  name_button (gtk_dialog_add_button (GTK_DIALOG (dialog), confirm_label, GTK_RESPONSE_ACCEPT), confirm_label);
  gtk_dialog_set_default_response (GTK_DIALOG (dialog), GTK_RESPONSE_CANCEL);
  return dialog;
}
