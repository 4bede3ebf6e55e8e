#ifndef TRELLIS_CGTK_SHIM_H
#define TRELLIS_CGTK_SHIM_H
/* The system GTK 4 headers, seen by Swift as the CGtk module. */
#include <gtk/gtk.h>
#include <glib-unix.h>
#endif
