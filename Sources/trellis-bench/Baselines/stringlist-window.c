/* stringlist-window.c: the baseline for `trellis-bench firstframe`.
 *
 * A plain C GTK 4 program doing what Trellis's window does, the usual way: a
 * GtkApplicationWindow with a header bar and a GtkListView whose model is a GtkStringList
 * filled with N rows ("row 0", "row 1", ...). It quits right after the first frame is painted
 * (GdkFrameClock::after-paint), like `trellis --exit-after-first-frame`.
 *
 *   stringlist-window N [K]
 *
 * With K, after the first frame it inserts K rows one at a time at pseudo-random positions
 * (each its own items-changed), waits for the frame showing them and prints
 * "liststress: MS ms" (the baseline of `trellis-bench liststress`).
 */
#include <gtk/gtk.h>
#include <stdlib.h>

static guint n_rows = 1000000;
static guint n_inserts = 0;
static GtkStringList *strings;
static gint64 stress_start;
static gboolean stress_done;

/* The same pseudo-random positions as `trellis-bench liststress-window`. */
static guint64 stress_seed = 0x2545F4914F6CDD1DULL;

static guint
next_position (guint bound)
{
  stress_seed = stress_seed * 6364136223846793005ULL + 1442695040888963407ULL;
  return (guint) ((stress_seed >> 33) % (bound + 1));
}

static void
setup_cb (GtkSignalListItemFactory *factory, GtkListItem *item, gpointer data)
{
  GtkWidget *label = gtk_label_new (NULL);
  gtk_label_set_xalign (GTK_LABEL (label), 0);
  gtk_list_item_set_child (item, label);
}

static void
bind_cb (GtkSignalListItemFactory *factory, GtkListItem *item, gpointer data)
{
  GtkStringObject *string = gtk_list_item_get_item (item);
  gtk_label_set_text (GTK_LABEL (gtk_list_item_get_child (item)), gtk_string_object_get_string (string));
}

static void
after_paint_cb (GdkFrameClock *clock, gpointer app)
{
  char buffer[32];

  if (n_inserts == 0 || stress_done)
    {
      if (stress_done)
        g_print ("liststress: %.3f ms\n", (g_get_monotonic_time () - stress_start) / 1000.0);
      g_application_quit (G_APPLICATION (app));
      return;
    }
  /* After the first frame: insert rows one at a time, each its own items-changed, then
   * quit after the frame that shows them. */
  stress_start = g_get_monotonic_time ();
  for (guint i = 0; i < n_inserts; i++)
    {
      const char *row[2] = { buffer, NULL };
      g_snprintf (buffer, sizeof buffer, "new %u", i);
      gtk_string_list_splice (strings, next_position (n_rows + i), 0, row);
    }
  stress_done = TRUE;
  gtk_widget_queue_draw (GTK_WIDGET (gtk_application_get_active_window (GTK_APPLICATION (app))));
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
  GtkListItemFactory *factory = gtk_signal_list_item_factory_new ();
  GtkWidget *scrolled = gtk_scrolled_window_new ();
  GtkWidget *list;
  char buffer[32];

  strings = gtk_string_list_new (NULL);

  for (guint i = 0; i < n_rows; i++)
    {
      g_snprintf (buffer, sizeof buffer, "row %u", i);
      gtk_string_list_append (strings, buffer);
    }

  g_signal_connect (factory, "setup", G_CALLBACK (setup_cb), NULL);
  g_signal_connect (factory, "bind", G_CALLBACK (bind_cb), NULL);
  list = gtk_list_view_new (GTK_SELECTION_MODEL (gtk_no_selection_new (G_LIST_MODEL (strings))), factory);
  gtk_scrolled_window_set_child (GTK_SCROLLED_WINDOW (scrolled), list);
  gtk_window_set_titlebar (GTK_WINDOW (window), gtk_header_bar_new ());
  gtk_window_set_title (GTK_WINDOW (window), "Baseline");
  gtk_window_set_default_size (GTK_WINDOW (window), 720, 640);
  gtk_window_set_child (GTK_WINDOW (window), scrolled);
  g_signal_connect (window, "map", G_CALLBACK (map_cb), app);
  gtk_window_present (GTK_WINDOW (window));
}

int
main (int argc, char **argv)
{
  GtkApplication *app;
  int status;

  if (argc > 1)
    n_rows = (guint) strtoul (argv[1], NULL, 10);
  if (argc > 2)
    n_inserts = (guint) strtoul (argv[2], NULL, 10);
  app = gtk_application_new ("io.github.trellis.Baseline", G_APPLICATION_NON_UNIQUE);
  g_signal_connect (app, "activate", G_CALLBACK (activate_cb), NULL);
  status = g_application_run (G_APPLICATION (app), 1, argv);
  g_object_unref (app);
  return status;
}
