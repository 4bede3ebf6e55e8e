/* trellis-confirmation-dialog.c */
#include "trellis-confirmation-dialog.h"

GtkWidget *
trellis_confirmation_dialog_new (GtkWindow  *parent,
                                 const char *title,
                                 const char *details,
                                 const char *cancel_label,
                                 const char *confirm_label)
{
  GtkWidget *dialog;

  g_return_val_if_fail (title != NULL && details != NULL, NULL);
  /* "%s": the texts are the app's or a plugin's words, never a format. */
  dialog = gtk_message_dialog_new (parent, GTK_DIALOG_MODAL | GTK_DIALOG_DESTROY_WITH_PARENT,
                                   GTK_MESSAGE_QUESTION, GTK_BUTTONS_NONE, "%s", title);
  gtk_message_dialog_format_secondary_text (GTK_MESSAGE_DIALOG (dialog), "%s", details);
  gtk_dialog_add_button (GTK_DIALOG (dialog), cancel_label, GTK_RESPONSE_CANCEL);
  gtk_dialog_add_button (GTK_DIALOG (dialog), confirm_label, GTK_RESPONSE_ACCEPT);
  gtk_dialog_set_default_response (GTK_DIALOG (dialog), GTK_RESPONSE_CANCEL);
  return dialog;
}
