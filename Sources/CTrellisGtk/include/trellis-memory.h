/* trellis-memory.h: the process's heap as malloc sees it, for leak tests. */
#ifndef TRELLIS_MEMORY_H
#define TRELLIS_MEMORY_H

#include <glib.h>

G_BEGIN_DECLS

/**
 * trellis_heap_in_use:
 *
 * Gives malloc's free pages back to the system first (malloc_trim), so that resident memory
 * read next leaves out what a burst of work freed but malloc kept.
 *
 * Returns: the bytes malloc has handed out and not had back, in every arena and mapping
 *   (mallinfo2).
 */
gsize trellis_heap_in_use (void);

G_END_DECLS

#endif
