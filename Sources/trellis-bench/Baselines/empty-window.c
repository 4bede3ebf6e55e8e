/* empty-window.c: the baseline for `trellis-bench startup`.
 *
 * A bare C GTK 4 window (a GtkApplicationWindow with a header bar and a label) that quits
 * right after its first frame is painted, like `trellis / --exit-after-first-frame`, and
 * prints that moment as that does: `first-frame-monotonic-us: N`, GLib's monotonic clock
 * (CLOCK_MONOTONIC) read in the frame clock's first "after-paint" after the window is mapped.
 */
#include <gtk/gtk.h>

static void
after_paint_cb (GdkFrameClock *clock, gpointer app)
{
  static gboolean painted = FALSE;

  if (painted)
    return;
  painted = TRUE;
  g_print ("first-frame-monotonic-us: %" G_GINT64_FORMAT "\n", g_get_monotonic_time ());
  g_application_quit (G_APPLICATION (app));
}

static void
map_cb (GtkWidget *window, gpointer app)
{
  g_signal_connect (gtk_widget_get_frame_clock (window), "after-paint", G_CALLBACK (after_paint_cb), app);
}

static void
activate_cb (GtkApplication *app, gpointer data)
{
  GtkWidget *window = gtk_application_window_new (app);

  gtk_window_set_titlebar (GTK_WINDOW (window), gtk_header_bar_new ());
  gtk_window_set_title (GTK_WINDOW (window), "Baseline");
  gtk_window_set_default_size (GTK_WINDOW (window), 720, 640);
  gtk_window_set_child (GTK_WINDOW (window), gtk_label_new ("Hello"));
  g_signal_connect (window, "map", G_CALLBACK (map_cb), app);
  gtk_window_present (GTK_WINDOW (window));
}

int
main (int argc, char **argv)
{
  GtkApplication *app = gtk_application_new ("io.github.trellis.EmptyBaseline", G_APPLICATION_NON_UNIQUE);
  int status;

  g_signal_connect (app, "activate", G_CALLBACK (activate_cb), NULL);
  status = g_application_run (G_APPLICATION (app), 1, argv);
  g_object_unref (app);
  return status;
}
